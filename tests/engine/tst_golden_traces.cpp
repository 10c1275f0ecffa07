// SPDX-License-Identifier: GPL-3.0-or-later
// Golden traces: short scenarios run by the engine on the simulated device, compared row by row
// with the CSVs in tests/golden/ (see tests/golden/README.md). Any change in behaviour, even one
// event, shows up here as a diff; LOOKAHEAD_UPDATE_GOLDEN=1 rewrites the files instead.
#include "io/event_csv.h"
#include "stream_harness.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <numeric>

using namespace la;
using la::test::StreamRun;

namespace {

struct Scenario {
    const char* name;
    std::vector<std::uint32_t> blocks;
    std::string prewarm = "none";
    std::uint64_t resetEvery = 0;
    bool backwardCombining = false;
};

std::vector<std::uint32_t> range(std::uint32_t from, std::uint32_t to) {
    std::vector<std::uint32_t> blocks(to - from);
    std::iota(blocks.begin(), blocks.end(), from);
    return blocks;
}

std::vector<std::uint32_t> concat(std::vector<std::uint32_t> a, const std::vector<std::uint32_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::vector<std::uint32_t> scattered(std::uint32_t n) {
    std::vector<std::uint32_t> blocks;
    for (std::uint32_t i = 0; i < n; ++i)
        blocks.push_back(i * 37 % 101);
    return blocks;
}

std::vector<Scenario> scenarios() {
    std::vector<std::uint32_t> backward = range(0, 16);
    std::reverse(backward.begin(), backward.end());
    return {
        {"sequential", range(0, 16)},
        {"alternating", range(0, 16), "every:2"},
        {"sparse", range(0, 24), "except-every:8"},
        {"backward", backward, "none", 0, true},
        {"random", scattered(12)},
        {"reset", range(0, 24), "none", 8},
        // A later read covers blocks an earlier read of the stream brought in or is still reading.
        {"revisit", concat(concat(range(0, 8), range(12, 16)), range(10, 20))},
    };
}

// Small limits so that a few dozen blocks reach every limit: max_ios 2, 4-block reads.
QStringList traceOf(const QString& policy, const QString& mechanics, const QString& dir) {
    const std::string path = (dir + QStringLiteral("/trace.csv")).toStdString();
    {
        EventCsvWriter writer(path, "");
        for (const Scenario& scenario : scenarios()) {
            StreamRun run;
            run.policy = policy.toStdString();
            run.mechanics = mechanics.toStdString();
            run.stream.effectiveIoConcurrency = 2;
            run.stream.ioCombineLimit = 4;
            // The what-if where the mechanics do not combine descending runs themselves (cf7035 does).
            run.stream.backwardCombining =
                scenario.backwardCombining &&
                findMechanics(run.mechanics).backward == BackwardRule::OneBlockReads;
            run.prewarm = scenario.prewarm;
            run.resetEvery = scenario.resetEvery;
            run.run(scenario.blocks);
            writer.setRunLabel(scenario.name);
            writer.onEvents(run.trace.events);
        }
        writer.commit();
    }
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QStringList readLines(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// The first differing row, with a few rows of context from both sides.
QString diffText(const QStringList& want, const QStringList& got) {
    qsizetype first = 0;
    while (first < want.size() && first < got.size() && want[first] == got[first])
        ++first;
    QString text = QStringLiteral("golden has %1 rows, engine %2; first difference at row %3 (1 = header)\n")
                       .arg(want.size())
                       .arg(got.size())
                       .arg(first + 1);
    const qsizetype from = std::max<qsizetype>(0, first - 3);
    auto side = [&](const char* label, const QStringList& rows) {
        text += QLatin1String(label);
        for (qsizetype i = from; i < std::min<qsizetype>(rows.size(), first + 6); ++i)
            text += QStringLiteral("  %1 %2 %3\n")
                        .arg(i == first ? QLatin1Char('>') : QLatin1Char(' '))
                        .arg(i + 1)
                        .arg(rows[i]);
    };
    side("--- golden\n", want);
    side("+++ engine\n", got);
    return text;
}

} // namespace

class TestGoldenTraces : public QObject {
    Q_OBJECT
private slots:
    void trace_data();
    void trace();
};

void TestGoldenTraces::trace_data() {
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("mechanics");
    QTest::addColumn<QString>("file");
    // Every policy on every version's mechanics.
    for (const char* policy : {"pg17", "pg18", "pg19", "fixed:4", "adaptive"}) {
        for (const Mechanics* mechanics : mechanicsRegistry()) {
            const QString name = QString::fromLatin1(policy);
            const QString on = QString::fromLatin1(mechanics->name);
            const QString file =
                QString(name).remove(QLatin1Char(':')) + QStringLiteral("-on-") + on + QStringLiteral(".csv");
            QTest::newRow(qPrintable(name + QStringLiteral(" on ") + on)) << name << on << file;
        }
    }
}

void TestGoldenTraces::trace() {
    QFETCH(QString, policy);
    QFETCH(QString, mechanics);
    QFETCH(QString, file);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList got = traceOf(policy, mechanics, dir.path());
    QVERIFY(got.size() > 1);
    const QString path = QStringLiteral(LOOKAHEAD_GOLDEN_DIR "/") + file;
    if (qEnvironmentVariableIntValue("LOOKAHEAD_UPDATE_GOLDEN") == 1) {
        QFile out(path);
        QVERIFY2(out.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
        const QByteArray text = (got.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
        QVERIFY2(out.write(text) == text.size() && out.flush(), qPrintable(path + out.errorString()));
        // Rewriting proves nothing about the engine: the row is skipped, not passed, so a run in this
        // mode can never be mistaken for a green suite.
        QSKIP(qPrintable(QStringLiteral("LOOKAHEAD_UPDATE_GOLDEN=1: rewrote %1 (%2 rows); review the diff")
                             .arg(path)
                             .arg(got.size())));
    }
    const QStringList want = readLines(path);
    QVERIFY2(!want.isEmpty(),
             qPrintable(path + QStringLiteral(" is missing: run with LOOKAHEAD_UPDATE_GOLDEN=1")));
    if (want != got)
        QFAIL(qPrintable(file + QStringLiteral(" differs\n") + diffText(want, got)));
}

QTEST_GUILESS_MAIN(TestGoldenTraces)
#include "tst_golden_traces.moc"

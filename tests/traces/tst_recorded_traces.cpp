// SPDX-License-Identifier: GPL-3.0-or-later
// Real captures of a real PostgreSQL, imported by the built binary as a user imports them, and the
// summary compared field by field with the one expected of it (tests/data/README.md): strace, perf
// and a kernel capture of a PostgreSQL 15 backend's scans (tests/data/traces/), and the strace of
// PostgreSQL 19's I/O workers (../shared/fixtures/pg19-io-workers/). No server is needed: the
// traces are the test data. LOOKAHEAD_UPDATE_GOLDEN=1 rewrites the expected files instead.
#include "cli_process.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace la;

namespace {

constexpr int kTimeoutMs = 120'000;

// The summary's part that the trace decides: its observed runs, every field but the path the trace
// was given by (the file name stands for it). The options and the model's run are left out: the
// golden traces pin the engine, and a change in a policy is no change in what a trace holds.
QJsonObject importedPart(const QJsonObject& summary, const QString& traceName) {
    QJsonArray observed;
    for (const QJsonValue& value : summary[QStringLiteral("runs")].toArray()) {
        QJsonObject run = value.toObject();
        if (run[QStringLiteral("policy")].toString() != QLatin1String("observed"))
            continue;
        run[QStringLiteral("trace")] = traceName;
        observed.append(run);
    }
    QJsonObject part;
    for (const char* key : {"schema", "compare", "cancelled"})
        part[QLatin1String(key)] = summary[QLatin1String(key)];
    part[QStringLiteral("runs")] = observed;
    return part;
}

QString text(const QJsonValue& value) {
    if (value.isObject())
        return QStringLiteral("an object");
    if (value.isArray())
        return QStringLiteral("an array of %1").arg(value.toArray().size());
    if (value.isString())
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return value.isNull() ? QStringLiteral("null") : QStringLiteral("nothing");
}

// Numbers computed from a trace (means, rates) may differ in their last bits between an optimised
// and a sanitised build; nothing a trace decides is that fine.
bool sameNumber(double expected, double got) {
    return expected == got || std::abs(expected - got) <= 1e-9 * std::max(std::abs(expected), std::abs(got));
}

// Every field of `expected` against `got`, one line per difference naming the field. A field `got`
// has beyond those is not a difference: a new summary figure needs no new expectations.
void compare(const QJsonValue& expected, const QJsonValue& got, const QString& field,
             QStringList& differences) {
    if (expected.isObject() && got.isObject()) {
        const QJsonObject want = expected.toObject();
        const QJsonObject have = got.toObject();
        for (auto it = want.begin(); it != want.end(); ++it)
            compare(it.value(), have.contains(it.key()) ? have[it.key()] : QJsonValue(QJsonValue::Undefined),
                    field.isEmpty() ? it.key() : field + QLatin1Char('.') + it.key(), differences);
        return;
    }
    if (expected.isArray() && got.isArray() && expected.toArray().size() == got.toArray().size()) {
        const QJsonArray want = expected.toArray();
        const QJsonArray have = got.toArray();
        for (qsizetype i = 0; i < want.size(); ++i)
            compare(want[i], have[i], field + QStringLiteral("[%1]").arg(i), differences);
        return;
    }
    if (expected.isDouble() && got.isDouble() && sameNumber(expected.toDouble(), got.toDouble()))
        return;
    if (expected != got || expected.type() != got.type())
        differences << QStringLiteral("%1: expected %2, got %3").arg(field, text(expected), text(got));
}

QString traces() {
    return QStringLiteral(LOOKAHEAD_TRACE_DATA);
}

} // namespace

class TestRecordedTraces : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void importMatchesItsExpectedSummary_data();
    void importMatchesItsExpectedSummary();
    void differenceNamesTheField();

private:
    QTemporaryDir m_dir;
};

void TestRecordedTraces::initTestCase() {
    QVERIFY(m_dir.isValid());
}

void TestRecordedTraces::importMatchesItsExpectedSummary_data() {
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("expected");
    const auto recorded = [](const char* row, const QString& trace, const QString& expected,
                             const QStringList& options = {}) {
        QTest::newRow(row) << trace << options << traces() + QLatin1Char('/') + expected;
    };
    const auto here = [](const char* name) { return traces() + QLatin1Char('/') + QLatin1String(name); };
    // PostgreSQL 15, one backend reading 8 kB at a time (tests/data/traces/record.sh).
    recorded("pg15 seq scan, strace", here("pg15-seq-scan.strace"),
             QStringLiteral("pg15-seq-scan.strace.expected.json"));
    recorded("pg15 seq scan, perf trace", here("pg15-seq-scan.perf"),
             QStringLiteral("pg15-seq-scan.perf.expected.json"));
    recorded("pg15 seq scan, kernel capture", here("pg15-seq-scan.kernel"),
             QStringLiteral("pg15-seq-scan.kernel.expected.json"));
    // The heap, the most read file, by default; the index chosen by its file's name.
    recorded("pg15 backward index scan, heap", here("pg15-backward-index-scan.strace"),
             QStringLiteral("pg15-backward-index-scan.strace.expected.json"));
    recorded("pg15 backward index scan, index", here("pg15-backward-index-scan.strace"),
             QStringLiteral("pg15-backward-index-scan.strace.index.expected.json"),
             {QStringLiteral("--trace-relation"), QStringLiteral("base/5/16394")});
    // PostgreSQL 19 with io_method=worker: the reads of the I/O workers, merged.
    for (const char* run : {"seq-random-6pct-uncached", "seq-all-uncached-scattered"}) {
        const QString name = QStringLiteral("pg19-io-workers-") + QLatin1String(run);
        recorded(qPrintable(name),
                 QStringLiteral(LOOKAHEAD_SHARED_FIXTURES "/pg19-io-workers/") + QLatin1String(run) +
                     QStringLiteral("/io-workers.strace"),
                 name + QStringLiteral(".expected.json"));
    }
}

void TestRecordedTraces::importMatchesItsExpectedSummary() {
    QFETCH(QString, trace);
    QFETCH(QStringList, options);
    QFETCH(QString, expected);
    QVERIFY2(QFileInfo(trace).isFile(), qPrintable(trace + QStringLiteral(" is missing")));
    const QString json = m_dir.filePath(QFileInfo(expected).fileName());
    const test::CliResult r =
        test::runLookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace,
                                       QStringLiteral("--summary-json"), json} +
                               options,
                           kTimeoutMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile written(json);
    QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(json));
    const QJsonObject got =
        importedPart(QJsonDocument::fromJson(written.readAll()).object(), QFileInfo(trace).fileName());
    QVERIFY2(!got[QStringLiteral("runs")].toArray().isEmpty(), "the summary has no observed run");
    if (qEnvironmentVariableIntValue("LOOKAHEAD_UPDATE_GOLDEN") == 1) {
        QFile out(expected);
        QVERIFY2(out.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(expected));
        const QByteArray bytes = QJsonDocument(got).toJson(QJsonDocument::Indented);
        QVERIFY2(out.write(bytes) == bytes.size() && out.flush(), qPrintable(expected + out.errorString()));
        // Rewriting checks nothing: skipped, never passed.
        QSKIP(qPrintable(
            QStringLiteral("LOOKAHEAD_UPDATE_GOLDEN=1: rewrote %1; review the diff").arg(expected)));
    }
    QFile file(expected);
    QVERIFY2(file.open(QIODevice::ReadOnly),
             qPrintable(expected + QStringLiteral(" is missing: run with LOOKAHEAD_UPDATE_GOLDEN=1")));
    QJsonParseError error{};
    const QJsonDocument want = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(want.isObject(), qPrintable(expected + QStringLiteral(": ") + error.errorString()));
    QStringList differences;
    compare(want.object(), got, {}, differences);
    QVERIFY2(differences.isEmpty(),
             qPrintable(QFileInfo(expected).fileName() + QStringLiteral(" differs:\n  ") +
                        differences.join(QStringLiteral("\n  "))));
}

// The comparison itself: a difference names the field, the expected and the actual value; a number
// within rounding, or a field only the actual has, is none.
void TestRecordedTraces::differenceNamesTheField() {
    const QJsonObject want{
        {QStringLiteral("runs"),
         QJsonArray{QJsonObject{{QStringLiteral("ios"), 546},
                                {QStringLiteral("mb_per_s"), 35.605737429475960},
                                {QStringLiteral("relation"), QStringLiteral("base/5/1")}}}}};
    QJsonObject run{{QStringLiteral("ios"), 545},
                    {QStringLiteral("mb_per_s"), 35.605737429476},
                    {QStringLiteral("relation"), QStringLiteral("base/5/1")},
                    {QStringLiteral("new_figure"), 1}};
    QStringList differences;
    compare(want, QJsonObject{{QStringLiteral("runs"), QJsonArray{run}}}, {}, differences);
    QCOMPARE(differences, QStringList{QStringLiteral("runs[0].ios: expected 546, got 545")});
    run.remove(QStringLiteral("relation"));
    differences.clear();
    compare(want, QJsonObject{{QStringLiteral("runs"), QJsonArray{run}}}, {}, differences);
    QCOMPARE(differences,
             (QStringList{QStringLiteral("runs[0].ios: expected 546, got 545"),
                          QStringLiteral("runs[0].relation: expected \"base/5/1\", got nothing")}));
    differences.clear();
    compare(want, QJsonObject{{QStringLiteral("runs"), QJsonArray{}}}, {}, differences);
    QCOMPARE(differences, QStringList{QStringLiteral("runs: expected an array of 1, got an array of 0")});
}

QTEST_GUILESS_MAIN(TestRecordedTraces)
#include "tst_recorded_traces.moc"

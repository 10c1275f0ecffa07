// SPDX-License-Identifier: GPL-3.0-or-later
// EXPLAIN (ANALYZE, IO) as a real PostgreSQL 19 printed it (docs/explain-io.md), reproduced by the
// command line from the same block list, cache state and settings: the shared fixtures' real runs.
// A sync run is deterministic, so both lines must agree character for character; worker and
// io_uring runs depend on timing, so only what does not (count, size, capacity) must agree.

#include "cli_process.h"
#include "test_files.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace la::test;

namespace {

QString fixtures() {
    return QStringLiteral(LOOKAHEAD_SHARED_FIXTURES);
}

// The Seq Scan node's read-stream lines, without their indentation.
struct ExplainLines {
    QString prefetch;
    QString io;
};

ExplainLines linesOf(const QString& text) {
    ExplainLines lines;
    for (const QString& raw : text.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.startsWith(QLatin1String("Prefetch: ")))
            lines.prefetch = line;
        else if (line.startsWith(QLatin1String("I/O: count=")))
            lines.io = line;
    }
    return lines;
}

// A setting's value from the run's settings.txt: "name TAB value [unit] TAB source" in the
// calibration runs, "name = value [unit]" in the traced ones.
QString setting(const QString& settings, const QString& name) {
    const QRegularExpression line(QStringLiteral("^%1(?:\t| = )(\\S+)").arg(name),
                                  QRegularExpression::MultilineOption);
    return line.match(settings).captured(1);
}

QString field(const QString& line, const QString& name) {
    const QRegularExpression pattern(QStringLiteral("\\b%1=(\\S+)").arg(name));
    return pattern.match(line).captured(1);
}

} // namespace

class TestPg19Explain : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void realRuns_data();
    void realRuns();
    void allCachedScanPrintsNoIoLine();
    void observedRunWithPostgresExplain();
    void explainIsKeptBySaveExportsAndOpen();
    void explainFiguresOutOfRangeAreRefused();
    void explainOfAnotherScanIsPointedOut();
    void lateStartIsCountedApart();
};

void TestPg19Explain::initTestCase() {
    if (!QDir(fixtures()).exists())
        QSKIP(qPrintable(QStringLiteral("the real PostgreSQL 19 runs are not at %1").arg(fixtures())));
}

void TestPg19Explain::realRuns_data() {
    QTest::addColumn<QString>("run");
    const QString calibration = fixtures() + QStringLiteral("/pg19-calibration");
    for (const char* kase : {"K1", "K2", "K3", "K4", "K5", "K6"})
        for (const char* method : {"sync", "worker", "io_uring"})
            QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(QLatin1String(kase), QLatin1String(method))))
                << QStringLiteral("%1/%2/%3/r1").arg(calibration, QLatin1String(kase), QLatin1String(method));
    for (const char* traced : {"seq-random-6pct-uncached", "seq-all-uncached-scattered"})
        QTest::newRow(traced) << fixtures() + QStringLiteral("/pg19-io-workers/") + QLatin1String(traced);
}

void TestPg19Explain::realRuns() {
    QFETCH(QString, run);
    const QString settings = QString::fromUtf8(readFile(run + QStringLiteral("/settings.txt")));
    const ExplainLines real = linesOf(QString::fromUtf8(readFile(run + QStringLiteral("/explain.txt"))));
    QVERIFY2(!real.prefetch.isEmpty() && !real.io.isEmpty(), qPrintable(run));
    const QString method = setting(settings, QStringLiteral("io_method"));
    QVERIFY2(!method.isEmpty(), qPrintable(run));
    QCOMPARE(setting(settings, QStringLiteral("debug_io_direct")), QStringLiteral("data"));

    // A Seq Scan's stream: READ_STREAM_SEQUENTIAL, O_DIRECT (no advice), the server's settings.
    const CliResult r = runLookahead(
        {QStringLiteral("--headless"), QStringLiteral("--policy"), QStringLiteral("pg19"),
         QStringLiteral("--blocks"), run + QStringLiteral("/blocks.txt"), QStringLiteral("--prewarm"),
         QStringLiteral("list:") + run + QStringLiteral("/cached.txt"), QStringLiteral("--sim-io-method"),
         method, QStringLiteral("--eic"), setting(settings, QStringLiteral("effective_io_concurrency")),
         QStringLiteral("--io-combine-limit"), setting(settings, QStringLiteral("io_combine_limit")),
         QStringLiteral("--shared-buffers"), setting(settings, QStringLiteral("shared_buffers")),
         QStringLiteral("--max-connections"), setting(settings, QStringLiteral("max_connections")),
         QStringLiteral("--direct"), QStringLiteral("--stream-flags=sequential")},
        120'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const ExplainLines model = linesOf(r.out);
    if (method == QLatin1String("sync")) {
        QCOMPARE(model.prefetch, real.prefetch);
        QCOMPARE(model.io, real.io);
        return;
    }
    for (const char* name : {"count", "size"})
        QCOMPARE(field(model.io, QLatin1String(name)), field(real.io, QLatin1String(name)));
    QCOMPARE(field(model.prefetch, QStringLiteral("capacity")),
             field(real.prefetch, QStringLiteral("capacity")));
}

void TestPg19Explain::allCachedScanPrintsNoIoLine() {
    // explain.c prints no I/O line for a scan that read nothing; the Prefetch line stays, at the
    // fast path's one pin (PostgreSQL 19 prints "avg=1.00 max=1 capacity=272" for this scan).
    const CliResult r =
        runLookahead({QStringLiteral("--headless"), QStringLiteral("--policy"), QStringLiteral("pg19"),
                      QStringLiteral("--dataset"), QStringLiteral("seq"), QStringLiteral("--pattern-blocks"),
                      QStringLiteral("16384"), QStringLiteral("--prewarm"), QStringLiteral("all"),
                      QStringLiteral("--shared-buffers"), QStringLiteral("131072"),
                      QStringLiteral("--direct"), QStringLiteral("--stream-flags=sequential")},
                     60'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const ExplainLines model = linesOf(r.out);
    QCOMPARE(model.prefetch, QStringLiteral("Prefetch: avg=1.00 max=1 capacity=272"));
    QVERIFY2(model.io.isEmpty(), qPrintable(model.io));
}

void TestPg19Explain::observedRunWithPostgresExplain() {
    // The traced real scan imported with its own EXPLAIN: PostgreSQL's figures beside the observed
    // run, on stdout and in the summary JSON.
    const QString run = fixtures() + QStringLiteral("/pg19-io-workers/seq-random-6pct-uncached");
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("s.json"));
    const CliResult r = runLookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"),
                                      run + QStringLiteral("/io-workers.strace"), QStringLiteral("--explain"),
                                      run + QStringLiteral("/explain.txt"), QStringLiteral("--trace-backend"),
                                      QStringLiteral("14309"), QStringLiteral("--compare-policy"),
                                      QStringLiteral("pg19"), QStringLiteral("--summary-json"), json},
                                     120'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(
                 QStringLiteral("  PostgreSQL's EXPLAIN (Seq Scan on t): Buffers shared hit=15401 read=983, "
                                "I/O Timings shared read=70.85 ms, Execution Time 226.68 ms\n"
                                "  PostgreSQL's Prefetch: avg=225.11 max=259 capacity=272\n"
                                "  PostgreSQL's I/O: count=923 waits=114 size=1.07 in-progress=13.34\n")),
             qPrintable(r.out));
    QVERIFY2(!r.err.contains(QStringLiteral("shared read=")), qPrintable(r.err)); // the model read as much
    // PostgreSQL's own count of the waits, which a syscall trace of I/O workers cannot give, is the
    // observed run's (the backend's one read of its own is tst_observed_visits').
    QVERIFY2(r.out.contains(QStringLiteral("  waits 114 (70.850 ms): PostgreSQL's own count (EXPLAIN's I/O "
                                           "waits=), their time its I/O Timings shared read\n")),
             qPrintable(r.out));
    const QJsonObject observed = summaryRun(json);
    QCOMPARE(observed[QStringLiteral("waits")].toInteger(), 114);
    QCOMPARE(observed[QStringLiteral("wait_ns")].toInteger(), 70'850'000);
    const QJsonObject server = observed[QStringLiteral("postgresql_explain")].toObject();
    QCOMPARE(server[QStringLiteral("node")].toString(), QStringLiteral("Seq Scan"));
    QCOMPARE(server[QStringLiteral("shared_read")].toInteger(), 983);
    QCOMPARE(server[QStringLiteral("io_waits")].toInteger(), 114);
}

// With --save or a plot export the observed run lost its EXPLAIN (issue 42 defect 8: 100 waits
// instead of 114, "postgresql_explain": null), and --open ignored the one the session kept: every
// way gives the summary JSON's observed run the same waits and the same PostgreSQL figures.
void TestPg19Explain::explainIsKeptBySaveExportsAndOpen() {
    const QString run = fixtures() + QStringLiteral("/pg19-io-workers/seq-random-6pct-uncached");
    QTemporaryDir dir;
    const QStringList imported{QStringLiteral("--headless"), QStringLiteral("--import-trace"),
                               run + QStringLiteral("/io-workers.strace"), QStringLiteral("--explain"),
                               run + QStringLiteral("/explain.txt")};
    const QString session = dir.filePath(QStringLiteral("s.lookahead"));
    const std::pair<const char*, QStringList> ways[] = {
        {"plain", imported},
        {"--save", imported + QStringList{QStringLiteral("--save"), session}},
        {"--export-png",
         imported + QStringList{QStringLiteral("--export-png"), dir.filePath(QStringLiteral("p.png"))}},
        {"--export-svg",
         imported + QStringList{QStringLiteral("--export-svg"), dir.filePath(QStringLiteral("p.svg"))}},
        {"--open", {QStringLiteral("--headless"), QStringLiteral("--open"), session}},
        {"--open --export-pdf",
         {QStringLiteral("--headless"), QStringLiteral("--open"), session, QStringLiteral("--export-pdf"),
          dir.filePath(QStringLiteral("p.pdf"))}},
    };
    QJsonObject expected;
    for (const auto& [way, args] : ways) {
        const QString json = dir.filePath(QStringLiteral("s.json"));
        const CliResult r = runLookahead(args + QStringList{QStringLiteral("--summary-json"), json}, 120'000);
        QVERIFY2(r.exitCode == 0, qPrintable(QLatin1String(way) + QLatin1Char(' ') + r.err));
        const QJsonObject observed = summaryRun(json);
        const QJsonObject figures{
            {QStringLiteral("waits"), observed[QStringLiteral("waits")]},
            {QStringLiteral("wait_ns"), observed[QStringLiteral("wait_ns")]},
            {QStringLiteral("waits_scope"), observed[QStringLiteral("waits_scope")]},
            {QStringLiteral("postgresql_explain"), observed[QStringLiteral("postgresql_explain")]}};
        if (expected.isEmpty()) {
            expected = figures;
            QCOMPARE(expected[QStringLiteral("waits")].toInteger(), 114);
            QCOMPARE(expected[QStringLiteral("postgresql_explain")]
                         .toObject()[QStringLiteral("io_waits")]
                         .toInteger(),
                     114);
        }
        QVERIFY2(figures == expected, qPrintable(QLatin1String(way) + QLatin1Char(' ') +
                                                 QJsonDocument(figures).toJson(QJsonDocument::Compact)));
        // An opened session prints PostgreSQL's figures as the import did.
        if (QLatin1String(way) == QLatin1String("--open"))
            QVERIFY2(r.out.contains(
                         QStringLiteral("  PostgreSQL's EXPLAIN (Seq Scan on t): Buffers shared hit=15401 "
                                        "read=983, I/O Timings shared read=70.85 ms, Execution Time 226.68 "
                                        "ms\n  PostgreSQL's Prefetch: avg=225.11 max=259 capacity=272\n")),
                     qPrintable(r.out));
        QFile::remove(json);
    }
}

// The real EXPLAIN with a figure no query can have (issue 42 defect 9): 1e13 ms of reading became
// -2^63 ns of waiting, and 2^63-1 waits were the observed run's. Refused, naming the file, the line,
// the figure and its range.
void TestPg19Explain::explainFiguresOutOfRangeAreRefused() {
    const QString run = fixtures() + QStringLiteral("/pg19-io-workers/seq-random-6pct-uncached");
    const QByteArray real = readFile(run + QStringLiteral("/explain.txt"));
    QVERIFY(real.contains("shared read=70.850\n") && real.contains("waits=114"));
    QTemporaryDir dir;
    const std::pair<QByteArray, QString> cases[] = {
        {QByteArray(real).replace("shared read=70.850\n", "shared read=1e13\n"),
         QStringLiteral("I/O Timings read=1e13 is out of its range 0..1152921504606.847 ms (36 years)")},
        {QByteArray(real).replace("waits=114", "waits=9223372036854775807"),
         QStringLiteral("I/O waits=9223372036854775807 is out of its range 0..9007199254740992")},
    };
    for (const auto& [text, says] : cases) {
        const QString explain = dir.filePath(QStringLiteral("explain.txt"));
        writeFile(explain, text);
        for (const QStringList& output :
             {QStringList{},
              QStringList{QStringLiteral("--save"), dir.filePath(QStringLiteral("s.lookahead"))}}) {
            const CliResult r =
                runLookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--import-trace"),
                                         run + QStringLiteral("/io-workers.strace"),
                                         QStringLiteral("--explain"), explain} +
                                 output,
                             120'000);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(QStringLiteral("EXPLAIN output %1 line ").arg(explain)) &&
                         r.err.contains(says),
                     qPrintable(r.err));
            QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("s.lookahead"))));
        }
    }
}

void TestPg19Explain::explainOfAnotherScanIsPointedOut() {
    // The EXPLAIN of another cache state: the model's misses and the server's reads disagree, and
    // the CLI says so. A plan of two scans, or --explain without a trace, is refused.
    const QString traced = fixtures() + QStringLiteral("/pg19-io-workers/seq-random-6pct-uncached");
    const QString other = fixtures() + QStringLiteral("/pg19-calibration/K1/sync/r1/explain.txt");
    const CliResult r =
        runLookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"),
                      traced + QStringLiteral("/io-workers.strace"), QStringLiteral("--explain"), other},
                     120'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // The reconciliation comes first, before the verdict: the counts, and why they cannot agree (the
    // model replays the trace's reads), and the trace's 1,065 blocks fewer than the server's reads.
    const qsizetype reconciled = r.out.indexOf(QStringLiteral("FIGURES CANNOT AGREE: "));
    QVERIFY2(reconciled >= 0, qPrintable(r.out));
    QVERIFY2(reconciled < r.out.indexOf(QStringLiteral("observed 923 reads")), qPrintable(r.out));
    for (const char* says :
         {"the model missed 983 blocks of t, PostgreSQL read 2,048 (EXPLAIN's shared read), "
          "the trace shows 983: 1,065 unexplained",
          "the model's visits are the trace's reads",
          "the trace shows 1,065 fewer blocks read of the relation"})
        QVERIFY2(r.out.contains(QLatin1String(says)), qPrintable(r.out));
    // No backend named and five processes read: the waits are the plan's own count (the trace has
    // none), which the note above calls into doubt.
    QVERIFY2(r.out.contains(QStringLiteral("PostgreSQL's own count (EXPLAIN's I/O waits=)")),
             qPrintable(r.out));
    QVERIFY2(r.err.contains(QStringLiteral("name it with --trace-backend PID")), qPrintable(r.err));

    QTemporaryDir dir;
    const QString join = dir.filePath(QStringLiteral("join.txt"));
    writeFile(join,
              "Hash Join  (actual rows=1 loops=1)\n  ->  Seq Scan on a  (actual rows=1 loops=1)\n"
              "  ->  Hash  (actual rows=1 loops=1)\n        ->  Seq Scan on b  (actual rows=1 loops=1)\n");
    const CliResult two =
        runLookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"),
                      traced + QStringLiteral("/io-workers.strace"), QStringLiteral("--explain"), join},
                     120'000);
    QCOMPARE(two.exitCode, 2);
    QVERIFY2(two.err.contains(QStringLiteral("the plan scans 2 tables (Seq Scan on a, Seq Scan on b)")),
             qPrintable(two.err));
    const CliResult alone =
        runLookahead({QStringLiteral("--headless"), QStringLiteral("--explain"), other}, 60'000);
    QCOMPARE(alone.exitCode, 2);
    QVERIFY2(alone.err.contains(QStringLiteral("--explain needs --import-trace FILE")),
             qPrintable(alone.err));
}

void TestPg19Explain::lateStartIsCountedApart() {
    // --stream-start-after on a block list: the first visits are read one by one before the stream
    // exists; PostgreSQL's EXPLAIN counts the stream alone, the run counts everything.
    QTemporaryDir dir;
    const QString list = dir.filePath(QStringLiteral("blocks.txt"));
    QByteArray blocks;
    for (int block = 0; block <= 600; block += 3) // 201 blocks, none adjacent: one read each
        blocks += QByteArray::number(block) + '\n';
    writeFile(list, blocks);
    const CliResult r = runLookahead({QStringLiteral("--headless"), QStringLiteral("--blocks"), list,
                                      QStringLiteral("--policy"), QStringLiteral("pg19"),
                                      QStringLiteral("--stream-start-after"), QStringLiteral("10")},
                                     60'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("  reads 201 (")), qPrintable(r.out));
    QVERIFY2(
        r.out.contains(QStringLiteral("  before the stream started: 10 reads, 10 waits (in the run's reads "
                                      "and waits, not in EXPLAIN's)\n")),
        qPrintable(r.out));
    QCOMPARE(field(linesOf(r.out).io, QStringLiteral("count")), QStringLiteral("191"));
}

QTEST_GUILESS_MAIN(TestPg19Explain)
#include "tst_pg19_explain.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// `lookahead record` against a real PostgreSQL 15 started by the test: a cold backward index scan of
// a hash-clustered table, a sequential scan with part of its table cached, and the ways a recording
// fails (a join, a wrong password, no server, a bad query, Cancel), each leaving the server clean.
#include "cli_process.h"
#include "observed/trace_importer.h"
#include "pg_server.h"
#include "record/recorded_scan.h"
#include "test_files.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace la;

namespace {

constexpr int kRows = 100'000;
const QString kSecret = QStringLiteral("hunter2-not-a-password");

// One server for every case: starting one takes seconds.
test::PgServer* g_server = nullptr;

QString conninfo(const QString& user = QStringLiteral("postgres"), const QString& password = kSecret) {
    return QStringLiteral("host=%1 port=%2 dbname=postgres user=%3 password=%4")
        .arg(g_server->socketDir())
        .arg(g_server->port())
        .arg(user, password);
}

QString sql(const QString& text) {
    QString error;
    const QString out = g_server->sql(text, error);
    if (!error.isEmpty())
        qWarning("%s", qPrintable(error));
    return out;
}

// The scan node's "Shared Read Blocks" in a recorded plan (FORMAT JSON).
qint64 planSharedRead(const QJsonValue& plan) {
    QJsonObject node = plan.toArray().at(0).toObject()[QStringLiteral("Plan")].toObject();
    while (!node[QStringLiteral("Node Type")].toString().endsWith(QLatin1String(" Scan")))
        node = node[QStringLiteral("Plans")].toArray().at(0).toObject();
    return node[QStringLiteral("Shared Read Blocks")].toInteger();
}

} // namespace

class TestRecord : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void keyRangeOfIndexConditions();
    void coldBackwardIndexScan();
    void sequentialScanPartlyCached();
    void notASingleRelationScan();
    void wrongPassword();
    void serverNotRunning();
    void queryError();
    void cancelLeavesTheServerClean();
    void serverNotVisibleHereGetsAllButTheTrace();
    void kernelTracerAgreesWithStrace();

private:
    test::PgServer m_server;
    QString m_skip;
};

void TestRecord::initTestCase() {
    m_skip = test::PgServer::unavailable();
    if (m_skip.isEmpty() && QStandardPaths::findExecutable(QStringLiteral("strace")).isEmpty())
        m_skip = QStringLiteral("strace is not installed (packaging/install-deps.sh installs it)");
    if (!m_skip.isEmpty())
        return;
    const QString error = m_server.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    g_server = &m_server;
    // Rows stored in hash order, so an index scan by `a` jumps around the heap; `s` for sequential
    // scans, small enough for shared buffers (no ring buffer).
    sql(QStringLiteral(
            "CREATE TABLE t(a int8, pad text);"
            "INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, %1) g ORDER BY hashint8(g);"
            "CREATE INDEX t_a ON t(a);"
            "CREATE TABLE s(a int8, pad text);"
            "INSERT INTO s SELECT g, repeat('y', 200) FROM generate_series(1, 40000) g;"
            "CREATE TABLE u(a int8)")
            .arg(kRows));
    sql(QStringLiteral("VACUUM ANALYZE t"));
    sql(QStringLiteral("VACUUM ANALYZE s"));
    sql(QStringLiteral("CHECKPOINT"));
    // A role that must give its password (scram), for the wrong-password case.
    sql(QStringLiteral("CREATE ROLE guarded LOGIN PASSWORD 'right-one'"));
    // A role that may not see the data directory, as on a server elsewhere.
    sql(QStringLiteral("CREATE ROLE plain LOGIN; GRANT SELECT ON s TO plain"));
    QFile hba(m_server.dataDir() + QStringLiteral("/pg_hba.conf"));
    QVERIFY(hba.open(QIODevice::ReadOnly));
    const QByteArray rules = "local all guarded scram-sha-256\n" + hba.readAll();
    hba.close();
    QVERIFY(hba.open(QIODevice::WriteOnly | QIODevice::Truncate));
    hba.write(rules);
    hba.close();
    sql(QStringLiteral("SELECT pg_reload_conf()"));
}

void TestRecord::cleanupTestCase() {
    g_server = nullptr;
}

void TestRecord::keyRangeOfIndexConditions() {
    QString why;
    const auto range = [&](const QString& condition, const QString& type = QStringLiteral("int8")) {
        return keyRangeOf(condition, QStringLiteral("a"), type, why);
    };
    std::optional<KeyCondition> r = range(QStringLiteral("(a <= 20000)"));
    QVERIFY(r);
    QCOMPARE(r->lo, std::numeric_limits<qint64>::min());
    QCOMPARE(r->hi, 20000);
    r = range(QStringLiteral("((t.a >= 5) AND (t.a < 9))"), QStringLiteral("int4"));
    QVERIFY(r);
    QCOMPARE(r->lo, 5);
    QCOMPARE(r->hi, 8);
    r = range(QStringLiteral("(a = '42'::bigint)"));
    QVERIFY(r);
    QCOMPARE(r->lo, 42);
    QCOMPARE(r->hi, 42);
    QVERIFY(!range(QStringLiteral("(b <= 3)")));
    QVERIFY(why.contains(QLatin1String("not a range on the key a")));
    QVERIFY(!range(QStringLiteral("(a = ANY ('{1,2}'::bigint[]))")));
    QVERIFY(!range(QStringLiteral("((a > 9) AND (a < 3))")));
    QVERIFY(why.contains(QLatin1String("selects no key")));
}

// The seed thread's case: a cold backward index scan of a hash-clustered table. The heap reads the
// trace shows are the plan's shared reads less the index's; the model visits the heap in ctid order
// and misses exactly those blocks; no password reaches any output.
void TestRecord::coldBackwardIndexScan() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    // PostgreSQL 15 cannot empty shared buffers while running: a restart does (--cold says so).
    QVERIFY(m_server.restart().isEmpty());
    const QString query = QStringLiteral("SELECT * FROM t WHERE a <= 20000 ORDER BY a DESC");
    QTemporaryDir out;
    const QString work = out.filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(work));
    const QString json = out.filePath(QStringLiteral("r.json"));
    const QString session = out.filePath(QStringLiteral("r.lookahead"));
    const test::CliResult run = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"), query,
         QStringLiteral("--cold"), QStringLiteral("--set"), QStringLiteral("enable_bitmapscan=off"),
         QStringLiteral("--set"), QStringLiteral("enable_seqscan=off"), QStringLiteral("--work-dir"), work,
         QStringLiteral("--summary-json"), json, QStringLiteral("--save"), session},
        300'000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    qInfo("%s", qPrintable(run.err));
    const QJsonObject doc = test::readJson(json);
    const QJsonObject recorded = doc[QStringLiteral("recorded")].toObject();
    QVERIFY(recorded[QStringLiteral("server_version")].toString().startsWith(QLatin1String("15.")));
    QCOMPARE(recorded[QStringLiteral("query")].toString(), query);
    QCOMPARE(recorded[QStringLiteral("relation")].toObject()[QStringLiteral("scan")].toString(),
             QStringLiteral("Index Scan"));
    QCOMPARE(recorded[QStringLiteral("visits")].toObject()[QStringLiteral("source")].toString(),
             QStringLiteral("btree"));
    QCOMPARE(recorded[QStringLiteral("cached_at_start")].toObject()[QStringLiteral("source")].toString(),
             QStringLiteral("pg_buffercache"));
    // 15 cannot bring the buffers back for an untraced run: said, not hidden.
    const QJsonObject overhead = recorded[QStringLiteral("tracing_overhead")].toObject();
    QCOMPARE(overhead[QStringLiteral("measured")].toBool(true), false);
    QVERIFY(overhead[QStringLiteral("why")].toString().contains(QLatin1String("only a restart")));

    // The trace's heap reads are the plan's shared reads less the index's.
    const QString tracePath = work + QStringLiteral("/query.trace");
    const QString heapFile =
        recorded[QStringLiteral("relation")].toObject()[QStringLiteral("file")].toString();
    const QString indexFile = sql(QStringLiteral("SELECT pg_relation_filepath('t_a')"));
    const std::optional<ObservedTrace> heap =
        importTrace({tracePath.toStdString(), TraceFormat::Auto, heapFile.toStdString(), {}});
    const std::optional<ObservedTrace> index =
        importTrace({tracePath.toStdString(), TraceFormat::Auto, indexFile.toStdString(), {}});
    QVERIFY(heap && index);
    const qint64 sharedRead =
        planSharedRead(recorded[QStringLiteral("plan")].toObject()[QStringLiteral("traced")]);
    qInfo("heap reads %zu, index reads %zu, plan shared read %lld", heap->reads.size(), index->reads.size(),
          sharedRead);
    QVERIFY(!heap->reads.empty());
    QCOMPARE(qint64(heap->reads.size() + index->reads.size()), sharedRead);

    const QJsonArray runs = doc[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    const QJsonObject observed = runs[0].toObject(), model = runs[1].toObject();
    QCOMPARE(observed[QStringLiteral("ios")].toInteger(), qint64(heap->reads.size()));
    // With --save too the observed run keeps the server's EXPLAIN of its scan (issue 42 defect 8).
    const QJsonObject explain = observed[QStringLiteral("postgresql_explain")].toObject();
    QCOMPARE(explain[QStringLiteral("node")].toString(), QStringLiteral("Index Scan"));
    QCOMPARE(explain[QStringLiteral("relation")].toString(), QStringLiteral("t"));
    QCOMPARE(explain[QStringLiteral("backward")].toBool(), true);
    QCOMPARE(model[QStringLiteral("misses")].toInteger(), qint64(heap->reads.size()));
    // The model's visits are the heap blocks in ctid order (a row on the block of the row before it
    // is no new visit: the page is still pinned).
    const QStringList ctidBlocks =
        sql(QStringLiteral("SELECT (ctid::text::point)[0]::int FROM t WHERE a <= 20000 ORDER BY a DESC"))
            .split(QLatin1Char('\n'));
    QCOMPARE(ctidBlocks.size(), 20000);
    qint64 visits = 0;
    for (qsizetype i = 0; i < ctidBlocks.size(); ++i)
        visits += i == 0 || ctidBlocks[i] != ctidBlocks[i - 1] ? 1 : 0;
    QCOMPARE(model[QStringLiteral("blocks")].toInteger(), visits);
    QCOMPARE(model[QStringLiteral("trace_disagreements")].toInteger(), 0);

    // The session holds what was recorded; nothing holds the password.
    const test::CliResult opened =
        test::runLookahead({QStringLiteral("--headless"), QStringLiteral("--open"), session}, 60'000);
    QCOMPARE(opened.exitCode, 0);
    QVERIFY2(opened.out.contains(
                 QStringLiteral("  PostgreSQL's EXPLAIN (Index Scan on t, backward): Buffers shared")),
             qPrintable(opened.out));
    for (const QString& file : {json, session}) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY2(!bytes.contains(kSecret.toUtf8()), qPrintable(file));
        if (file == session)
            QVERIFY(bytes.contains("\"tracing_overhead\""));
    }
    QVERIFY(!run.err.contains(kSecret) && !run.out.contains(kSecret));
    QVERIFY(m_server.tracedProcesses().isEmpty());
}

// A sequential scan with its first 300 blocks in shared buffers: the cache at the start is
// pg_buffercache's snapshot, and the model misses exactly the other blocks, as the server did.
void TestRecord::sequentialScanPartlyCached() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QVERIFY(m_server.restart().isEmpty());
    sql(QStringLiteral("CREATE EXTENSION IF NOT EXISTS pg_prewarm"));
    sql(QStringLiteral("SELECT pg_prewarm('s', 'buffer', 'main', 0, 299)"));
    sql(QStringLiteral("DROP EXTENSION pg_prewarm"));
    const qint64 blocks = sql(QStringLiteral("SELECT pg_relation_size('s') / 8192")).toLongLong();
    QVERIFY(blocks > 1000);
    QTemporaryDir out;
    const QString json = out.filePath(QStringLiteral("r.json"));
    const test::CliResult run = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM s;"), QStringLiteral("--summary-json"), json},
        300'000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    qInfo("%s", qPrintable(run.err));
    const QJsonObject doc = test::readJson(json);
    const QJsonObject recorded = doc[QStringLiteral("recorded")].toObject();
    const QJsonObject cached = recorded[QStringLiteral("cached_at_start")].toObject();
    QCOMPARE(cached[QStringLiteral("source")].toString(), QStringLiteral("pg_buffercache"));
    QCOMPARE(cached[QStringLiteral("blocks")].toInteger(), 300);
    QCOMPARE(cached[QStringLiteral("ranges")].toString(), QStringLiteral("0-299"));
    QCOMPARE(recorded[QStringLiteral("visits")].toObject()[QStringLiteral("source")].toString(),
             QStringLiteral("sequential"));
    const QJsonArray runs = doc[QStringLiteral("runs")].toArray();
    const QJsonObject observed = runs[0].toObject(), model = runs[1].toObject();
    const qint64 sharedRead =
        planSharedRead(recorded[QStringLiteral("plan")].toObject()[QStringLiteral("traced")]);
    QCOMPARE(sharedRead, blocks - 300);
    QCOMPARE(observed[QStringLiteral("blocks")].toInteger(), sharedRead);
    QCOMPARE(model[QStringLiteral("blocks")].toInteger(), blocks);
    QCOMPARE(model[QStringLiteral("hits")].toInteger(), 300);
    QCOMPARE(model[QStringLiteral("misses")].toInteger(), sharedRead);
    QCOMPARE(model[QStringLiteral("trace_disagreements")].toInteger(), 0);
    // The extension the recording created for its snapshot is gone again.
    QVERIFY(sql(QStringLiteral("SELECT count(*) FROM pg_extension WHERE extname = 'pg_buffercache'")) ==
            QLatin1String("0"));

    // Everything cached: the untraced run starts from the same cache, and tracing's cost is measured.
    const test::CliResult warm = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM s"), QStringLiteral("--summary-json"), json},
        300'000);
    QVERIFY2(warm.exitCode == 0, qPrintable(warm.err));
    const QJsonObject overhead = test::readJson(json)[QStringLiteral("recorded")]
                                     .toObject()[QStringLiteral("tracing_overhead")]
                                     .toObject();
    qInfo("warm: traced %.1f ms, untraced %.1f ms", overhead[QStringLiteral("traced_ms")].toDouble(),
          overhead[QStringLiteral("untraced_ms")].toDouble());
    QVERIFY(overhead[QStringLiteral("untraced_ms")].toDouble() > 0);
    QVERIFY(test::readJson(json)[QStringLiteral("recorded")]
                .toObject()[QStringLiteral("plan")]
                .toObject()
                .contains(QStringLiteral("untraced")));
}

void TestRecord::notASingleRelationScan() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const test::CliResult run =
        test::runLookahead({QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(),
                            QStringLiteral("--query"), QStringLiteral("SELECT * FROM t JOIN s USING (a)")},
                           120'000);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("is not a scan of one relation (it has ")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("Seq Scan on s")) || run.err.contains(QLatin1String("on t")),
             qPrintable(run.err));
    QVERIFY(m_server.tracedProcesses().isEmpty());
}

void TestRecord::wrongPassword() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const test::CliResult run = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(QStringLiteral("guarded")),
         QStringLiteral("--query"), QStringLiteral("SELECT count(*) FROM s")},
        60'000);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("cannot connect: ")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("password authentication failed for user \"guarded\"")),
             qPrintable(run.err));
    QVERIFY(!run.err.contains(kSecret) && !run.out.contains(kSecret));
}

void TestRecord::serverNotRunning() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QTemporaryDir nowhere;
    const test::CliResult run = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"),
         QStringLiteral("host=%1 port=5 dbname=postgres password=%2").arg(nowhere.path(), kSecret),
         QStringLiteral("--query"), QStringLiteral("SELECT 1")},
        60'000);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("cannot connect: ")) &&
                 run.err.contains(QLatin1String("No such file or directory")),
             qPrintable(run.err));
    QVERIFY(!run.err.contains(kSecret));
}

void TestRecord::queryError() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const test::CliResult run =
        test::runLookahead({QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(),
                            QStringLiteral("--query"), QStringLiteral("SELECT * FROM nosuch")},
                           60'000);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("the query failed: ERROR:  relation \"nosuch\" does not exist")),
             qPrintable(run.err));
}

// Cancel while the traced query runs: the query is cancelled on the server, the tracer detached, the
// extension created for the snapshot dropped; no session of ours stays behind.
void TestRecord::cancelLeavesTheServerClean() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QProcess record;
    record.start(QStringLiteral(LOOKAHEAD_BINARY),
                 {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(),
                  QStringLiteral("--query"),
                  QStringLiteral("SELECT count(*) FROM s WHERE pg_sleep(0.01) IS NOT NULL")});
    QByteArray err;
    QVERIFY2(test::waitForStderr(record, "running the query, traced", err, 120'000), err.constData());
    QVERIFY(!m_server.tracedProcesses().isEmpty());
    ::kill(pid_t(record.processId()), SIGINT);
    const test::CliResult run = test::finishProcess(record, 60'000);
    QCOMPARE(run.exitCode, 130);
    QVERIFY2(run.err.contains(QLatin1String("cancelled; the server is left as it was")), qPrintable(run.err));
    QVERIFY2(m_server.tracedProcesses().isEmpty(),
             qPrintable(m_server.tracedProcesses().join(QLatin1Char(','))));
    QCOMPARE(sql(QStringLiteral("SELECT count(*) FROM pg_extension WHERE extname = 'pg_buffercache'")),
             QStringLiteral("0"));
    // Only the psql asking is left: the recording's two sessions are gone, its query with them.
    QCOMPARE(
        sql(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")),
        QStringLiteral("1"));
}

// A role that cannot see the server's data directory records as it would a server on another
// machine: settings, plan and the model on the scan's visits, without a trace, and says so.
void TestRecord::serverNotVisibleHereGetsAllButTheTrace() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QTemporaryDir out;
    const QString json = out.filePath(QStringLiteral("r.json"));
    const test::CliResult run =
        test::runLookahead({QStringLiteral("record"), QStringLiteral("--conninfo"),
                            conninfo(QStringLiteral("plain")), QStringLiteral("--query"),
                            QStringLiteral("SELECT count(*) FROM s"), QStringLiteral("--summary-json"), json},
                           120'000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(
        run.err.contains(QLatin1String("cannot be traced from here (this role may not see data_directory")),
        qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("a superuser can run CREATE EXTENSION pg_buffercache")),
             qPrintable(run.err));
    const QJsonObject doc = test::readJson(json);
    const QJsonObject recorded = doc[QStringLiteral("recorded")].toObject();
    QCOMPARE(recorded[QStringLiteral("server")].toObject()[QStringLiteral("local")].toBool(true), false);
    QCOMPARE(recorded[QStringLiteral("tracer")].toString(), QStringLiteral("none"));
    const QJsonArray runs = doc[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 1); // the model alone
    QCOMPARE(runs[0].toObject()[QStringLiteral("blocks")].toInteger(),
             sql(QStringLiteral("SELECT pg_relation_size('s') / 8192")).toLongLong());
    QVERIFY(m_server.tracedProcesses().isEmpty());
}

// The same cold sequential scan recorded with the kernel's tracepoints and with strace: the device
// reads (the kernel's read-ahead among them) and the read calls cover the same heap blocks; the
// traced run times show each tracer's cost.
void TestRecord::kernelTracerAgreesWithStrace() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    if (::geteuid() != 0)
        QSKIP("the kernel tracer needs root");
    const qint64 blocks = sql(QStringLiteral("SELECT pg_relation_size('s') / 8192")).toLongLong();
    QTemporaryDir out;
    const QString json = out.filePath(QStringLiteral("r.json"));
    for (const QString& tracer : {QStringLiteral("kernel"), QStringLiteral("strace")}) {
        QVERIFY(m_server.restart().isEmpty());
        const test::CliResult run = test::runLookahead(
            {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
             QStringLiteral("SELECT count(*) FROM s"), QStringLiteral("--cold"), QStringLiteral("--tracer"),
             tracer, QStringLiteral("--summary-json"), json},
            300'000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject doc = test::readJson(json);
        const QJsonObject recorded = doc[QStringLiteral("recorded")].toObject();
        QCOMPARE(recorded[QStringLiteral("tracer")].toString(), tracer);
        const QJsonObject observed = doc[QStringLiteral("runs")].toArray()[0].toObject();
        QCOMPARE(observed[QStringLiteral("blocks")].toInteger(), blocks);
        const double ms = recorded[QStringLiteral("plan")]
                              .toObject()[QStringLiteral("traced")]
                              .toArray()
                              .at(0)
                              .toObject()[QStringLiteral("Execution Time")]
                              .toDouble();
        qInfo("%s: %lld device or call reads of %lld blocks; the query ran %.1f ms traced",
              qPrintable(tracer), observed[QStringLiteral("ios")].toInteger(), blocks, ms);
        if (tracer == QLatin1String("kernel"))
            QVERIFY2(run.err.contains(QLatin1String("the page cache took in")), qPrintable(run.err));
    }
    // The same cold scan untraced, for the tracers' cost (a figure, not a verdict: machines are noisy).
    QVERIFY(m_server.restart().isEmpty());
    m_server.dropOsCache();
    const QJsonDocument plan = QJsonDocument::fromJson(
        sql(QStringLiteral("EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM s")).toUtf8());
    qInfo("untraced: the query ran %.1f ms",
          plan.array().at(0).toObject()[QStringLiteral("Execution Time")].toDouble());
}

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"

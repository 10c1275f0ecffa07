// SPDX-License-Identifier: GPL-3.0-or-later
// `lookahead record` against a real PostgreSQL 15 started by the test: a cold backward index scan of
// a hash-clustered table, a sequential scan with part of its table cached, and the ways a recording
// fails (a plan that reads no table, a wrong password, no server, a bad query, Cancel), each leaving the
// server clean.
#include "child_process.h"
#include "cli_process.h"
#include "observed/trace_importer.h"
#include "pg_server.h"
#include "record/conninfo_mask.h"
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

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

using namespace la;

namespace {

constexpr int kRows = 100'000;
const QString kSecret = QStringLiteral("hunter2-not-a-password");

// One server for every case: starting one takes seconds.
test::PgServer* g_server = nullptr;

QString conninfo(const QString& user = QStringLiteral("postgres"), const QString& password = kSecret) {
    return g_server->conninfo(user) + QStringLiteral(" password=") + password;
}

QString sql(const QString& text) {
    return g_server->sqlLogged(text);
}

// A psql session of the test's holding advisory lock `key` until release(): a recorded query that
// takes the same lock waits for it, so the test acts while the traced query runs.
class HeldLock {
public:
    HeldLock(const test::PgServer& server, int key) {
        m_psql.start(server.psqlProgram(), server.psqlArgs());
        m_psql.write(QStringLiteral("SELECT pg_advisory_lock(%1), 'locked';\n").arg(key).toUtf8());
        QByteArray out;
        m_held = QTest::qWaitFor(
            [&] {
                out += m_psql.readAllStandardOutput();
                return out.contains("locked");
            },
            60'000);
    }
    ~HeldLock() { release(); }
    bool held() const { return m_held; }
    void release() {
        if (m_psql.state() == QProcess::NotRunning)
            return;
        m_psql.write("SELECT pg_advisory_unlock_all();\n");
        m_psql.closeWriteChannel();
        m_psql.waitForFinished(60'000);
    }

private:
    QProcess m_psql;
    bool m_held = false;
};

// A query that waits for HeldLock(4242), then counts s.
const QString kLockedQuery =
    QStringLiteral("SELECT count(*) FROM s WHERE (SELECT pg_advisory_xact_lock_shared(4242)) IS NOT NULL");

// Ends every session but the asker's, and waits until they have ended (a killed recording's sessions
// go on until the server notices).
void endOtherSessions() {
    sql(QStringLiteral("SELECT pg_terminate_backend(pid, 60000) FROM pg_stat_activity WHERE backend_type = "
                       "'client backend' AND pid <> pg_backend_pid()"));
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
    void planThatReadsNoTable();
    void wrongPassword();
    void serverNotRunning();
    void queryError();
    void cancelLeavesTheServerClean();
    void cancelStopsTheVisitsQuery();
    void serverNotVisibleHereGetsAllButTheTrace();
    void kernelTracerAgreesWithStrace();
    void passwordMasking();
    void passwordIsNeverShown();
    void writingQueriesAreRefused_data();
    void writingQueriesAreRefused();
    void visitsQueryReadsInBatches();
    void visitsQueryMemoryIsBounded();
    void serverTextReachesStderrPrintable();
    void optionsAreCheckedBeforeConnecting();
    void workDirectoryMustBeOurs();
    void linkPlantedAfterTheCheckIsNotFollowed();
    void killedRecordingIsCleanedUp();

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
    // The test owns the server and installs pg_buffercache, which a recording only reads where it is.
    sql(QStringLiteral("CREATE EXTENSION pg_buffercache"));
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
    QVERIFY2(m_server.tracedProcesses().isEmpty(),
             qPrintable(m_server.tracedProcesses().join(QLatin1Char(','))));
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

// A plan with no node that reads a table (a join's are recorded: tst_record_plan) is refused, naming
// what it has.
void TestRecord::planThatReadsNoTable() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const test::CliResult run = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM generate_series(1, 10)")},
        120'000);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(
        run.err.contains(QLatin1String("the query's plan reads no table (it has Aggregate, Function Scan)")),
        qPrintable(run.err));
    QVERIFY2(m_server.tracedProcesses().isEmpty(),
             qPrintable(m_server.tracedProcesses().join(QLatin1Char(','))));
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

// Cancel while the traced query runs: the query is cancelled on the server, the tracer detached; the
// extensions are as they were, and no session of ours stays behind.
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
    QCOMPARE(sql(QStringLiteral("SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension")),
             QStringLiteral("pg_buffercache,plpgsql"));
    // Only the psql asking is left: the recording's two sessions are gone, its query with them.
    QCOMPARE(
        sql(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")),
        QStringLiteral("1"));
}

// Cancel while the control session asks the server for the scan's visits: that query is cancelled on
// the server too. Its Index Cond calls gate(), which waits for the test's lock only under the settings
// of the visits' query (enable_tidscan off), so the traced runs pass and the visits' query waits.
void TestRecord::cancelStopsTheVisitsQuery() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    sql(QStringLiteral("CREATE OR REPLACE FUNCTION gate() RETURNS int8 STABLE LANGUAGE plpgsql AS $$BEGIN "
                       "IF current_setting('enable_tidscan') = 'off' THEN PERFORM "
                       "pg_advisory_xact_lock_shared(4343); END IF; RETURN 20000; END$$"));
    const QString waiting =
        QStringLiteral("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
    {
        HeldLock lock(*g_server, 4343);
        QVERIFY(lock.held());
        QProcess record;
        record.start(QStringLiteral(LOOKAHEAD_BINARY),
                     {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(),
                      QStringLiteral("--query"), QStringLiteral("SELECT count(pad) FROM t WHERE a < gate()"),
                      QStringLiteral("--set"), QStringLiteral("enable_seqscan=off"), QStringLiteral("--set"),
                      QStringLiteral("enable_bitmapscan=off")});
        QByteArray err;
        QVERIFY2(test::waitForStderr(record, "reading the visits", err, 120'000), err.constData());
        QVERIFY2(QTest::qWaitFor([&] { return sql(waiting) == QLatin1String("1"); }, 60'000),
                 err.constData());
        ::kill(pid_t(record.processId()), SIGINT);
        // The lock is still held: only a cancel on the server ends the visits' query.
        const test::CliResult run = test::finishProcess(record, 60'000);
        QCOMPARE(run.exitCode, 130);
        QVERIFY2(run.err.contains(QLatin1String("cancelled; the server is left as it was")),
                 qPrintable(run.err));
        QCOMPARE(sql(waiting), QStringLiteral("0"));
    }
    endOtherSessions();
    sql(QStringLiteral("DROP FUNCTION gate()"));
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
    // pg_buffercache is installed, but this role may not read it.
    QVERIFY2(run.err.contains(QLatin1String("grant this role pg_monitor to read shared buffers")),
             qPrintable(run.err));
    const QJsonObject doc = test::readJson(json);
    const QJsonObject recorded = doc[QStringLiteral("recorded")].toObject();
    QCOMPARE(recorded[QStringLiteral("server")].toObject()[QStringLiteral("local")].toBool(true), false);
    QCOMPARE(recorded[QStringLiteral("tracer")].toString(), QStringLiteral("none"));
    const QJsonArray runs = doc[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 1); // the model alone
    QCOMPARE(runs[0].toObject()[QStringLiteral("blocks")].toInteger(),
             sql(QStringLiteral("SELECT pg_relation_size('s') / 8192")).toLongLong());
    QVERIFY2(m_server.tracedProcesses().isEmpty(),
             qPrintable(m_server.tracedProcesses().join(QLatin1Char(','))));
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

// Where the password is, as typed: masked there and nowhere else (issue 42, defect 3).
void TestRecord::passwordMasking() {
    QCOMPARE(maskedConninfo("postgresql://postgres:S3cr3tPWxyzzy@[::1:5498/att"),
             std::string("postgresql://postgres:********@[::1:5498/att"));
    QCOMPARE(maskedConninfo("postgres://u:p%zzw@h/db?password=other&sslmode=disable"),
             std::string("postgres://u:********@h/db?password=********&sslmode=disable"));
    QCOMPARE(maskedConninfo("postgresql://h/db?pass%77ord=x"),
             std::string("postgresql://h/db?pass%77ord=********"));
    // No userinfo before the first '/': a ':' in the path is no password.
    QCOMPARE(maskedConninfo("postgresql://h:5432/a:b@c"), std::string("postgresql://h:5432/a:b@c"));
    QCOMPARE(maskedConninfo("host=/tmp password='se cr\\'et' user=postgres"),
             std::string("host=/tmp password=******** user=postgres"));
    QCOMPARE(maskedConninfo("password = postgres user=postgres dbname=postgres"),
             std::string("password = ******** user=postgres dbname=postgres"));
    QCOMPARE(maskedConninfo("host=/tmp password='unterminated"), std::string("host=/tmp password=********"));
    QCOMPARE(maskedConninfo("mydb"), std::string("mydb"));
    QVERIFY(!passwordEscapeProblem("postgresql://u:a%zzb@h/db").empty());
    QVERIFY(!passwordEscapeProblem("postgresql://u:a%00b@h/db").empty());
    QVERIFY(!passwordEscapeProblem("postgresql://u:a%2@h/db").empty());
    QVERIFY(passwordEscapeProblem("postgresql://u:a%25b@h/db").empty());
    QVERIFY(passwordEscapeProblem("host=h password=a%zz").empty()); // key=value: no %-escapes
}

// The reproducers of issue 42's defect 3: libpq's parse errors quote the conninfo; the password is
// masked in them, whatever escapes it holds. A password that is also a word of the message (here the
// user's name) masks nothing else.
void TestRecord::passwordIsNeverShown() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString password = QStringLiteral("S3cr3tPWxyzzy");
    const auto record = [](const QString& conninfo) {
        return test::runLookahead({QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo,
                                   QStringLiteral("--query"), QStringLiteral("SELECT count(*) FROM s")},
                                  60'000);
    };
    const test::CliResult uri =
        record(QStringLiteral("postgresql://postgres:%1@[::1:5498/att").arg(password));
    QCOMPARE(uri.exitCode, 1);
    QVERIFY2(uri.err.contains(QLatin1String("postgresql://postgres:********@[::1:5498/att")),
             qPrintable(uri.err));
    QVERIFY2(!uri.err.contains(password) && !uri.out.contains(password), qPrintable(uri.err));
    for (const QString& escaped : {QStringLiteral("S3cr%zz3tPW"), QStringLiteral("S3cr%003tPW")}) {
        const test::CliResult bad =
            record(QStringLiteral("postgresql://postgres:%1@localhost/postgres").arg(escaped));
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QLatin1String("write a '%' in a password as %25")), qPrintable(bad.err));
        QVERIFY2(!bad.err.contains(QLatin1String("S3cr")), qPrintable(bad.err));
    }
    const test::CliResult quoted =
        record(QStringLiteral("host=%1 password='%2 user=postgres").arg(g_server->socketDir(), password));
    QCOMPARE(quoted.exitCode, 1);
    QVERIFY2(!quoted.err.contains(password), qPrintable(quoted.err));
    const test::CliResult commonWord = record(conninfo(QStringLiteral("guarded"), QStringLiteral("guarded")));
    QCOMPARE(commonWord.exitCode, 1);
    QVERIFY2(commonWord.err.contains(QLatin1String("password authentication failed for user \"guarded\"")),
             qPrintable(commonWord.err));
}

void TestRecord::writingQueriesAreRefused_data() {
    QTest::addColumn<test::PgInstallation>("installation");
    for (const test::PgInstallation& installation : test::pgInstallations())
        QTest::newRow(qPrintable(QStringLiteral("PostgreSQL ") + installation.name)) << installation;
}

// record runs what reads and nothing else (issue 42, defect 1): the server says what a query does
// (DECLARE takes only a query that reads; the plan's ModifyTable or LockRows), and whatever runs,
// runs in a read-only transaction that is rolled back. Each writing query is refused and the tables
// are as they were; a query that reads is recorded, traced with the kernel's tracepoints (on 18+
// its I/O workers and the postmaster's new children too), and leaves nothing behind.
void TestRecord::writingQueriesAreRefused() {
    QFETCH(test::PgInstallation, installation);
    if (const QString why = test::PgServer::unavailable(installation); !why.isEmpty())
        QSKIP(qPrintable(why));
    test::PgServer server(installation);
    QVERIFY2(server.start().isEmpty(), "the server did not start");
    QString error;
    server.sql(
        QStringLiteral("CREATE TABLE t(a int8, pad text); INSERT INTO t SELECT g, repeat('x', 200) FROM "
                       "generate_series(1, 20000) g; CREATE TABLE log(a int8); CREATE SEQUENCE seq; "
                       "CREATE FUNCTION logs() RETURNS int8 LANGUAGE plpgsql AS "
                       "$$BEGIN INSERT INTO log VALUES (1); RETURN 1; END$$"),
        error);
    server.sql(QStringLiteral("VACUUM ANALYZE t"), error);
    server.sql(QStringLiteral("CHECKPOINT"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString info = QStringLiteral("host=%1 port=%2 dbname=postgres user=postgres")
                             .arg(server.socketDir())
                             .arg(server.port());
    const QString state =
        QStringLiteral("SELECT (SELECT count(*) FROM t) || ' ' || (SELECT count(*) FROM log) || ' ' || "
                       "(SELECT count(*) FROM "
                       "pg_class WHERE relname IN ('made', 'into')) || ' ' || (SELECT last_value FROM seq)");
    const QString before = server.sql(state, error);
    const QStringList writing{
        QStringLiteral("INSERT INTO log SELECT a FROM t WHERE a < 10"),
        QStringLiteral("DELETE FROM t WHERE a < 10"),
        QStringLiteral("UPDATE t SET a = a + 1 WHERE a < 10"),
        QStringLiteral(
            "WITH moved AS (UPDATE t SET a = -a WHERE a < 10 RETURNING a) SELECT count(*) FROM moved"),
        QStringLiteral("WITH gone AS (DELETE FROM t RETURNING a) SELECT count(*) FROM t"),
        QStringLiteral("CREATE TABLE made AS SELECT a FROM t WHERE a < 10"),
        QStringLiteral("SELECT a INTO into FROM t WHERE a < 10"),
        QStringLiteral("SELECT * FROM t WHERE a < 10 FOR UPDATE"),
        QStringLiteral("SELECT count(*) FROM t; DELETE FROM t"),
        // Reads in form, writes inside: the read-only transaction refuses, and rolls back.
        QStringLiteral("SELECT count(*) FROM t WHERE a < logs()"),
        QStringLiteral("SELECT count(*) FROM t WHERE a < nextval('seq')"),
    };
    for (const QString& query : writing) {
        const test::CliResult run = test::runLookahead(
            {QStringLiteral("record"), QStringLiteral("--conninfo"), info, QStringLiteral("--query"), query},
            120'000);
        QVERIFY2(run.exitCode == 1, qPrintable(query + QLatin1Char('\n') + run.err));
        QVERIFY2(run.err.contains(QLatin1String("is refused: record runs only a query that reads")) ||
                     run.err.contains(QLatin1String("read-only transaction")) ||
                     run.err.contains(QLatin1String("multiple commands")),
                 qPrintable(query + QLatin1Char('\n') + run.err));
        QCOMPARE(server.sql(state, error), before);
    }
    // A --visits-query is held to the same.
    const test::CliResult visits = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), info, QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM t"), QStringLiteral("--visits-query"),
         QStringLiteral("WITH gone AS (DELETE FROM t RETURNING ctid) SELECT * FROM gone")},
        120'000);
    QVERIFY2(visits.exitCode == 1 && visits.err.contains(QLatin1String(
                                         "--visits-query is refused: record runs only a query that reads")),
             qPrintable(visits.err));
    QCOMPARE(server.sql(state, error), before);

    // A query that reads is recorded and leaves nothing behind.
    QTemporaryDir out;
    const QString json = out.filePath(QStringLiteral("r.json"));
    QVERIFY(server.restart().isEmpty());
    const QStringList tracer =
        ::geteuid() == 0 ? QStringList{QStringLiteral("--tracer"), QStringLiteral("kernel")} : QStringList();
    const test::CliResult read =
        test::runLookahead(QStringList{QStringLiteral("record"), QStringLiteral("--conninfo"), info,
                                       QStringLiteral("--query"), QStringLiteral("SELECT count(*) FROM t"),
                                       QStringLiteral("--cold"), QStringLiteral("--summary-json"), json} +
                               tracer,
                           300'000);
    QVERIFY2(read.exitCode == 0, qPrintable(read.err));
    const QJsonObject doc = test::readJson(json);
    const qint64 blocks =
        server.sql(QStringLiteral("SELECT pg_relation_size('t') / 8192"), error).toLongLong();
    QCOMPARE(doc[QStringLiteral("runs")].toArray()[0].toObject()[QStringLiteral("blocks")].toInteger(),
             blocks);
    QCOMPARE(server.sql(state, error), before);
    QCOMPARE(server.sql(QStringLiteral("SELECT count(*) FROM pg_extension WHERE extname = 'pg_buffercache'"),
                        error),
             QStringLiteral("0"));
    QVERIFY2(server.tracedProcesses().isEmpty(), qPrintable(server.tracedProcesses().join(QLatin1Char(','))));
}

// --visits-query's rows come in batches through a cursor (issue 42, defect 7): their count, each in
// order; a row that is no visit is named.
void TestRecord::visitsQueryReadsInBatches() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QTemporaryDir out;
    const QString work = out.filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(work));
    const QString json = out.filePath(QStringLiteral("r.json"));
    const test::CliResult run = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM t WHERE a < 1000"), QStringLiteral("--visits-query"),
         QStringLiteral("SELECT g % 2000 FROM generate_series(1, 250001) g;"), QStringLiteral("--work-dir"),
         work, QStringLiteral("--summary-json"), json},
        300'000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject visits =
        test::readJson(json)[QStringLiteral("recorded")].toObject()[QStringLiteral("visits")].toObject();
    QCOMPARE(visits[QStringLiteral("source")].toString(), QStringLiteral("visits-query"));
    QCOMPARE(visits[QStringLiteral("count")].toInteger(), 250001);
    const QList<QByteArray> lines = test::readFile(work + QStringLiteral("/visits.txt")).split('\n');
    QCOMPARE(lines.size(), 250002); // and the empty piece after the last newline
    QCOMPARE(lines[0], QByteArray("1"));
    QCOMPARE(lines[249999], QByteArray("0"));
    QCOMPARE(lines[250000], QByteArray("1"));
    const test::CliResult bad = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM t WHERE a < 1000"), QStringLiteral("--visits-query"),
         QStringLiteral("SELECT CASE WHEN g = 150000 THEN 'x' ELSE (g % 2000)::text END FROM "
                        "generate_series(1, 200000) g")},
        300'000);
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains(QLatin1String("--visits-query returned \"x\" in row 150000")),
             qPrintable(bad.err));
    const test::CliResult past = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM t WHERE a < 1000"), QStringLiteral("--visits-query"),
         QStringLiteral("SELECT 7 UNION ALL SELECT pg_relation_size('t') / 8192")},
        300'000);
    QCOMPARE(past.exitCode, 1);
    QVERIFY2(past.err.contains(QLatin1String("--visits-query returned block ")) &&
                 past.err.contains(QLatin1String("in row 2, past the end of public.t")),
             qPrintable(past.err));
}

// Five million visits are fetched a batch at a time and written as they come: the recording holds a
// batch, not the answer (it held 850 MB before; issue 42, defect 7).
void TestRecord::visitsQueryMemoryIsBounded() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    QSKIP("a sanitizer's own memory (its quarantine of freed blocks) is no measure of the recording's");
#endif
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QTemporaryDir out;
    const test::MeasuredRun m = test::runMeasured(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM s"), QStringLiteral("--visits-query"),
         QStringLiteral("SELECT g % 1000 FROM generate_series(1, 5000000) g")},
        out.path(), 300'000);
    QVERIFY2(m.result.exitCode == 0, qPrintable(m.result.err));
    const long kib = m.maxRssKb;
    qInfo("5,000,000 visits: the recording's peak resident set was %ld KiB", kib);
    QVERIFY2(kib < 400 * 1024, qPrintable(QString::number(kib)));
}

// A server's text reaches stderr through printable(): a RAISE's message and a relation's name with
// terminal escapes come out escaped (issue 42, defect 10).
void TestRecord::serverTextReachesStderrPrintable() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    sql(QStringLiteral("CREATE TABLE \"esc\x1b[31mred\"(a int8); INSERT INTO \"esc\x1b[31mred\" SELECT "
                       "generate_series(1, 100); "
                       "CREATE FUNCTION noisy(int8) RETURNS bool LANGUAGE plpgsql AS $$BEGIN IF $1 = 1 THEN "
                       "RAISE NOTICE E'\\x1b[2Jcleared'; END IF; RETURN true; END$$; "
                       "CREATE FUNCTION boom(int8) RETURNS bool LANGUAGE plpgsql AS $$BEGIN IF $1 = 50 THEN "
                       "RAISE EXCEPTION E'\\x1b[31mboom'; END IF; RETURN true; END$$"));
    const test::CliResult noisy = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM \"esc\x1b[31mred\" WHERE noisy(a)")},
        120'000);
    QVERIFY2(noisy.exitCode == 0, qPrintable(noisy.err));
    QVERIFY2(noisy.err.contains(QLatin1String("the server said: NOTICE:  \\x1B[2Jcleared")),
             qPrintable(noisy.err));
    QVERIFY2(noisy.err.contains(QLatin1String("esc\\x1B[31mred")), qPrintable(noisy.err));
    const test::CliResult failed = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(), QStringLiteral("--query"),
         QStringLiteral("SELECT count(*) FROM \"esc\x1b[31mred\" WHERE boom(a)")},
        120'000);
    QCOMPARE(failed.exitCode, 1);
    QVERIFY2(failed.err.contains(QLatin1String("ERROR:  \\x1B[31mboom")), qPrintable(failed.err));
    for (const QString& err : {noisy.err, failed.err, noisy.out})
        QVERIFY(!err.contains(QLatin1Char('\x1b')));
    sql(QStringLiteral("DROP TABLE \"esc\x1b[31mred\"; DROP FUNCTION noisy(int8); DROP FUNCTION boom(int8)"));
}

// Every option and output is checked before anything connects or runs (issue 42, defect 11; issue
// 46): here no server listens, and each mistake is said, not "cannot connect".
void TestRecord::optionsAreCheckedBeforeConnecting() {
    QTemporaryDir nowhere;
    const QString info = QStringLiteral("host=%1 port=5 dbname=postgres").arg(nowhere.path());
    const auto record = [&](const QStringList& args) {
        return test::runLookahead(
            QStringList{QStringLiteral("record"), QStringLiteral("--conninfo"), info} + args, 60'000);
    };
    const QString query = QStringLiteral("SELECT count(*) FROM s");
    const test::CliResult typo = record({QStringLiteral("--querry"), query});
    QCOMPARE(typo.exitCode, 2);
    QVERIFY2(typo.err.contains(QLatin1String("unknown option '--querry' (did you mean --query?)")),
             qPrintable(typo.err));
    const QList<QPair<QStringList, QString>> mistakes{
        {{QStringLiteral("--save"), QStringLiteral("/nonexistent-dir/r.lookahead")},
         QStringLiteral("/nonexistent-dir")},
        {{QStringLiteral("--export-png"), nowhere.path()}, QStringLiteral("it is a directory")},
        {{QStringLiteral("--summary-json"), QStringLiteral("/nonexistent-dir/r.json")},
         QStringLiteral("/nonexistent-dir")},
        {{QStringLiteral("--eic"), QStringLiteral("5000")}, QStringLiteral("--eic")},
        {{QStringLiteral("--compare-policy"), QStringLiteral("nosuch")}, QStringLiteral("nosuch")},
        {{QStringLiteral("--work-dir"), QStringLiteral("/nonexistent-dir")}, QStringLiteral("--work-dir")},
        {{QStringLiteral("--set"), QStringLiteral("enable_seqscan")}, QStringLiteral("NAME=VALUE")},
        {{QStringLiteral("--trace-csv"), QStringLiteral("/nonexistent-dir/e.csv")},
         QStringLiteral("/nonexistent-dir")},
    };
    for (const auto& [args, said] : mistakes) {
        const test::CliResult run = record(QStringList{QStringLiteral("--query"), query} + args);
        QVERIFY2(run.exitCode == 2, qPrintable(args.join(QLatin1Char(' ')) + QLatin1Char('\n') + run.err));
        QVERIFY2(run.err.contains(said), qPrintable(run.err));
        QVERIFY2(!run.err.contains(QLatin1String("cannot connect")), qPrintable(run.err));
    }
}

// --work-dir must be a directory of ours that nobody else can write or move (issue 42, defect 2):
// another user (nobody) plants a link to root's directory in a shared sticky directory, or offers
// a directory of theirs, or one everyone may write; each is refused, and root's directory stays empty.
void TestRecord::workDirectoryMustBeOurs() {
    if (::geteuid() != 0)
        QSKIP("plants as user nobody, which needs root");
    QTemporaryDir shared(QDir::tempPath() + QStringLiteral("/lookahead-shared-XXXXXX"));
    QVERIFY(::chmod(qPrintable(shared.path()), 0755) == 0);
    const QString sticky = shared.filePath(QStringLiteral("sticky"));
    QVERIFY(QDir().mkdir(sticky) && ::chmod(qPrintable(sticky), 01777) == 0);
    QTemporaryDir victim;
    const std::string made = test::inChild([&] {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            return std::string("cannot become nobody");
        if (::symlink(qPrintable(victim.path()), qPrintable(sticky + QStringLiteral("/planted"))) != 0 ||
            ::mkdir(qPrintable(sticky + QStringLiteral("/theirs")), 0700) != 0)
            return std::string(std::strerror(errno));
        return std::string("planted");
    });
    QCOMPARE(QString::fromStdString(made), QStringLiteral("planted"));
    const QString open = shared.filePath(QStringLiteral("open"));
    QVERIFY(QDir().mkdir(open) && ::chmod(qPrintable(open), 0777) == 0);
    const QList<QPair<QString, QString>> refused{
        {sticky + QStringLiteral("/planted"), QStringLiteral("is a symlink owned by user 65534")},
        {sticky + QStringLiteral("/theirs"), QStringLiteral("it belongs to user 65534")},
        {open, QStringLiteral("others may write in it")},
    };
    for (const auto& [dir, said] : refused) {
        const test::CliResult run = test::runLookahead(
            {QStringLiteral("record"), QStringLiteral("--conninfo"), QStringLiteral("host=/nonexistent"),
             QStringLiteral("--query"), QStringLiteral("SELECT 1"), QStringLiteral("--work-dir"), dir},
            60'000);
        QVERIFY2(run.exitCode == 2, qPrintable(run.err));
        QVERIFY2(run.err.contains(said), qPrintable(run.err));
    }
    QVERIFY(QDir(victim.path()).isEmpty());
}

// The work directory's files are written relative to the descriptor opened when it was checked: a
// directory put in its place afterwards (here by root, who alone could) gets none of them.
void TestRecord::linkPlantedAfterTheCheckIsNotFollowed() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QTemporaryDir out, victim;
    const QString work = out.filePath(QStringLiteral("work")), moved = out.filePath(QStringLiteral("moved"));
    QVERIFY(QDir().mkpath(work));
    HeldLock lock(*g_server, 4242);
    QVERIFY(lock.held());
    QProcess record;
    record.start(QStringLiteral(LOOKAHEAD_BINARY),
                 {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(),
                  QStringLiteral("--query"), kLockedQuery, QStringLiteral("--work-dir"), work});
    QByteArray err;
    QVERIFY2(test::waitForStderr(record, "running the query, traced", err, 120'000), err.constData());
    QVERIFY(QDir().rename(work, moved));
    QVERIFY(QFile::link(victim.path(), work));
    lock.release();
    test::finishProcess(record, 300'000);
    QVERIFY2(
        QDir(victim.path()).isEmpty(),
        qPrintable(
            QDir(victim.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).join(QLatin1Char(' '))));
    QVERIFY(QFile::exists(moved + QStringLiteral("/query.trace")));
    QVERIFY(QFile::exists(moved + QStringLiteral("/plan.json")));
    QCOMPARE(QFileInfo(moved + QStringLiteral("/plan.json")).permissions() &
                 (QFile::ReadOther | QFile::ReadGroup | QFile::WriteOther | QFile::WriteGroup),
             QFile::Permissions());
}

// A recording killed outright (SIGKILL) leaves, with the kernel tracer, its tracefs instance, and no
// extension (it creates none); a pg_buffercache that a recording of an earlier Lookahead created and
// could not drop (marked by its comment, naming a session that is gone) is left too. The next recording
// removes them and says so, and so does record --clean (issue 42, defect 12).
void TestRecord::killedRecordingIsCleanedUp() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const auto killRecording = [&]() -> qint64 {
        HeldLock lock(*g_server, 4242);
        if (!lock.held())
            return 0;
        QProcess record;
        record.start(QStringLiteral(LOOKAHEAD_BINARY),
                     {QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(),
                      QStringLiteral("--query"), kLockedQuery});
        QByteArray err;
        if (!test::waitForStderr(record, "running the query, traced", err, 120'000))
            return 0;
        const qint64 pid = record.processId();
        record.kill();
        record.waitForFinished();
        lock.release();
        endOtherSessions();
        return pid;
    };
    const QString extensions =
        QStringLiteral("SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension");
    const QString installed = sql(extensions);
    // The extension as an earlier Lookahead's recording left it: its comment names the session that
    // created it, here one that has ended.
    const auto leaveOldLeftover = [&] {
        const QString gone = sql(QStringLiteral("SELECT pg_backend_pid()"));
        sql(QStringLiteral("DROP EXTENSION pg_buffercache; CREATE EXTENSION pg_buffercache; COMMENT ON "
                           "EXTENSION pg_buffercache IS 'created by lookahead record, dropped when it ends; "
                           "session pid %1'")
                .arg(gone));
    };
    const auto instance = [](qint64 pid) {
        return QDir(QStringLiteral("/sys/kernel/tracing/instances"))
            .exists(QStringLiteral("lookahead-%1").arg(pid));
    };
    const bool kernel = ::geteuid() == 0;
    const qint64 first = killRecording();
    QVERIFY(first > 0);
    QCOMPARE(sql(extensions), installed);
    QCOMPARE(instance(first), kernel);
    leaveOldLeftover();
    const test::CliResult next =
        test::runLookahead({QStringLiteral("record"), QStringLiteral("--conninfo"), conninfo(),
                            QStringLiteral("--query"), QStringLiteral("SELECT count(*) FROM s")},
                           300'000);
    QVERIFY2(next.exitCode == 0, qPrintable(next.err));
    QVERIFY2(next.err.contains(QLatin1String("dropped the extension pg_buffercache, created by a recording")),
             qPrintable(next.err));
    if (kernel)
        QVERIFY2(next.err.contains(QStringLiteral("removed the tracefs instance lookahead-%1").arg(first)),
                 qPrintable(next.err));
    QCOMPARE(sql(extensions), QStringLiteral("plpgsql"));
    QVERIFY(!instance(first));

    sql(QStringLiteral("CREATE EXTENSION pg_buffercache"));
    const qint64 second = killRecording();
    QVERIFY(second > 0);
    leaveOldLeftover();
    const test::CliResult cleaned = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--clean"), QStringLiteral("--conninfo"), conninfo()},
        60'000);
    QVERIFY2(cleaned.exitCode == 0, qPrintable(cleaned.err));
    QVERIFY2(cleaned.err.contains(QLatin1String("dropped the extension pg_buffercache")),
             qPrintable(cleaned.err));
    QCOMPARE(sql(extensions), QStringLiteral("plpgsql"));
    QVERIFY(!instance(second));
    const test::CliResult nothing = test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--clean"), QStringLiteral("--conninfo"), conninfo()},
        60'000);
    QVERIFY2(nothing.exitCode == 0 && nothing.err.contains(QLatin1String("nothing to clean up")),
             qPrintable(nothing.err));
    // An extension the user installed is theirs: never dropped.
    sql(QStringLiteral("CREATE EXTENSION pg_buffercache"));
    test::runLookahead(
        {QStringLiteral("record"), QStringLiteral("--clean"), QStringLiteral("--conninfo"), conninfo()},
        60'000);
    QCOMPARE(sql(extensions), installed);
}

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// EXPLAIN (ANALYZE, BUFFERS[, IO]) output read back (docs/explain-output.md): real PostgreSQL 19
// output against the figures its runs recorded apart, real PostgreSQL 15 output in text and JSON
// against each other, and damaged output refused with the file and line named.

#include "experiment/explain_output.h"
#include "input_error.h"
#include "pg_server.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace la;
using namespace la::test;

namespace {

QString fixtures() {
    return QStringLiteral(LOOKAHEAD_SHARED_FIXTURES);
}

QString refusal(const QByteArray& bytes) {
    try {
        parseExplainOutput(bytes, QStringLiteral("plan.txt"));
    } catch (const InputError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

// Starts `server` (Debian's PostgreSQL 15) with t(a int8, pad text), 20,000 rows of 500 bytes, then
// runs `then`; the error, empty when all went well.
QString startWithTable(PgServer& server, const QString& then) {
    QString error = server.start();
    if (error.isEmpty())
        server.sql(
            QStringLiteral("CREATE TABLE t (a int8, pad text); INSERT INTO t SELECT g, repeat('x', 500) "
                           "FROM generate_series(1, 20000) g"),
            error);
    if (error.isEmpty())
        server.sql(then, error);
    return error;
}

} // namespace

class TestExplainOutput : public QObject {
    Q_OBJECT
private slots:
    void realPostgres19Runs();
    void postgres15TextAndJsonAgree();
    void unmeasuredTimingsAreLeftOut();
    void psqlDecorationsAreSkipped();
    void psqlAlignedJson();
    void damagedOutputIsRefused_data();
    void damagedOutputIsRefused();
};

void TestExplainOutput::realPostgres19Runs() {
    // Each of the 66 runs' explain.txt against the row summary.csv has for it, written by the
    // measuring script from the same run.
    QFile summary(fixtures() + QStringLiteral("/pg19-calibration/summary.csv"));
    if (!summary.open(QIODevice::ReadOnly))
        QSKIP("the real PostgreSQL 19 runs are not beside the clone");
    const QList<QByteArray> rows = summary.readAll().trimmed().split('\n');
    QCOMPARE(rows.size(), 67);
    for (qsizetype r = 1; r < rows.size(); ++r) {
        const QList<QByteArray> c = rows[r].split(',');
        const QString run = fixtures() + QStringLiteral("/pg19-calibration/%1/%2/r%3/explain.txt")
                                             .arg(QString::fromLatin1(c[0]), QString::fromLatin1(c[1]),
                                                  QString::fromLatin1(c[2]));
        const ExplainOutput plan = parseExplainOutput(readFile(run), run);
        QCOMPARE(plan.format, ExplainOutput::Format::Text);
        QCOMPARE(plan.nodes.size(), std::size_t{2});
        QCOMPARE(plan.nodes[0].nodeType, QStringLiteral("Aggregate"));
        const ExplainNode* scan = plan.scanOf(QStringLiteral("t"));
        QVERIFY2(scan != nullptr, qPrintable(run));
        QCOMPARE(scan, plan.scanOf(QString())); // the only scan
        QCOMPARE(scan->nodeType, QStringLiteral("Seq Scan"));
        QCOMPARE(scan->depth, 1);
        QCOMPARE(scan->prefetchAvg.value(), c[3].toDouble());
        QCOMPARE(scan->prefetchMax.value(), c[4].toULongLong());
        QCOMPARE(scan->prefetchCapacity.value(), c[5].toULongLong());
        QCOMPARE(scan->ioCount.value(), c[6].toULongLong());
        QCOMPARE(scan->ioWaits.value(), c[7].toULongLong());
        QCOMPARE(scan->ioSize.value(), c[8].toDouble());
        QCOMPARE(scan->ioInProgress.value(), c[9].toDouble());
        QCOMPARE(scan->sharedHit.value(), c[10].toULongLong());
        QCOMPARE(scan->sharedRead.value(), c[11].toULongLong());
        QCOMPARE(plan.executionMs.value(), c[12].toDouble());
        QCOMPARE(scan->sharedReadMs.value(), c[13].toDouble());
        QCOMPARE(scan->actualRows.value(), 65536.0);
    }
}

void TestExplainOutput::postgres15TextAndJsonAgree() {
    // The same backward index scan of a real PostgreSQL 15, all cached, explained in text and in
    // JSON: both read back to the same nodes and figures.
    if (const QString why = PgServer::unavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    PgServer server;
    QString error = startWithTable(server, QStringLiteral("CREATE INDEX idx ON t (a)"));
    server.sql(QStringLiteral("VACUUM ANALYZE t"), error); // not in the transaction of the lines above
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString query =
        QStringLiteral("SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN (ANALYZE, "
                       "BUFFERS%1) SELECT * FROM t WHERE a BETWEEN 100 AND 5000 ORDER BY a DESC");
    server.sql(query.arg(QString()), error); // everything it touches is cached from here on
    const QString text = server.sql(query.arg(QString()), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString json = server.sql(query.arg(QStringLiteral(", FORMAT JSON")), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    const ExplainOutput fromText = parseExplainOutput(text.toUtf8(), QStringLiteral("text"));
    const ExplainOutput fromJson = parseExplainOutput(json.toUtf8(), QStringLiteral("json"));
    QCOMPARE(fromText.format, ExplainOutput::Format::Text);
    QCOMPARE(fromJson.format, ExplainOutput::Format::Json);
    QCOMPARE(fromText.nodes.size(), fromJson.nodes.size());
    const ExplainNode* a = fromText.scanOf(QStringLiteral("t"));
    const ExplainNode* b = fromJson.scanOf(QStringLiteral("t"));
    QVERIFY2(a && b, qPrintable(text));
    QCOMPARE(a->nodeType, QStringLiteral("Index Scan"));
    QCOMPARE(b->nodeType, a->nodeType);
    QCOMPARE(a->index, QStringLiteral("idx"));
    QCOMPARE(b->index, a->index);
    QVERIFY(a->backward && b->backward);
    QCOMPARE(a->actualRows.value(), 4901.0);
    QCOMPARE(b->actualRows.value(), 4901.0);
    QVERIFY(a->sharedHit.value() > 0);
    QCOMPARE(b->sharedHit, a->sharedHit);
    QVERIFY(!a->sharedRead && !b->sharedRead.value_or(0)); // all cached: text omits read=, JSON says 0
    QVERIFY(!a->prefetchAvg && !b->prefetchAvg);           // PostgreSQL 15 has no read-stream lines
    QVERIFY(fromText.executionMs && fromJson.executionMs);
}

// A real server that read blocks with track_io_timing off (its default) prints no I/O Timings: the
// line leaves them out and says why once, rather than "I/O Timings shared read=- ms"; with it on,
// they are there. The window's row says the same.
void TestExplainOutput::unmeasuredTimingsAreLeftOut() {
    if (const QString why = PgServer::unavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    PgServer server;
    QString error = startWithTable(server, QStringLiteral("CHECKPOINT"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const auto explained = [&](bool timing) {
        // A restart empties shared buffers: the scan reads.
        const QString restarted = server.restart();
        if (!restarted.isEmpty())
            return restarted;
        const QString text =
            server.sql(QStringLiteral("SET max_parallel_workers_per_gather = 0; SET track_io_timing = %1; "
                                      "EXPLAIN (ANALYZE, BUFFERS) "
                                      "SELECT count(*) FROM t")
                           .arg(timing ? QStringLiteral("on") : QStringLiteral("off")),
                       error);
        const ExplainOutput plan = parseExplainOutput(text.toUtf8(), QStringLiteral("plan.txt"));
        const ExplainNode* scan = plan.scanOf(QStringLiteral("t"));
        return scan ? describeServerExplain(serverExplainJson(plan, *scan))
                    : QStringLiteral("no scan of t in: ") + text;
    };
    const QString off = explained(false);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(off.contains(QStringLiteral("Buffers shared hit=")) && !off.contains(QStringLiteral("read=0")),
             qPrintable(off));
    QVERIFY2(!off.contains(QStringLiteral("I/O Timings shared read")) && !off.contains(QStringLiteral("=-")),
             qPrintable(off));
    QCOMPARE(off.count(QStringLiteral("track_io_timing")), 1);
    QVERIFY2(off.contains(QStringLiteral("(no I/O Timings: the server's track_io_timing was off)")),
             qPrintable(off));
    const QString on = explained(true);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(on.contains(QStringLiteral("I/O Timings shared read=")), qPrintable(on));
    QVERIFY2(!on.contains(QStringLiteral("track_io_timing")), qPrintable(on));
}

void TestExplainOutput::psqlDecorationsAreSkipped() {
    // psql's aligned output: a header, a rule, a leading space, and a row count.
    const QByteArray aligned = "                     QUERY PLAN\n"
                               "----------------------------------------------------\n"
                               " Seq Scan on public.t t1  (actual time=0.011..2.5 rows=10 loops=1)\n"
                               "   Buffers: shared hit=3 read=7 dirtied=1, temp read=5\n"
                               "   I/O Timings: shared/local read=1.250\n"
                               " Planning:\n"
                               "   Buffers: shared hit=99\n"
                               " Planning Time: 0.100 ms\n"
                               " Execution Time: 2.700 ms\n"
                               "(7 rows)\n";
    const ExplainOutput plan = parseExplainOutput(aligned, QStringLiteral("aligned.txt"));
    QCOMPARE(plan.nodes.size(), std::size_t{1});
    const ExplainNode& scan = plan.nodes[0];
    QCOMPARE(scan.relation, QStringLiteral("public.t"));
    QCOMPARE(plan.scanOf(QStringLiteral("t")), &scan);
    QCOMPARE(scan.sharedHit.value(), 3ull); // not the planner's 99
    QCOMPARE(scan.sharedRead.value(), 7ull);
    QCOMPARE(scan.sharedDirtied.value(), 1ull);
    QCOMPARE(scan.sharedReadMs.value(), 1.25);
    QCOMPARE(plan.planningMs.value(), 0.1);
    QCOMPARE(plan.executionMs.value(), 2.7);
}

void TestExplainOutput::psqlAlignedJson() {
    // Real PostgreSQL 15 output as psql prints FORMAT JSON by default: header, rule, a "+" at the
    // end of each line, a row count, and the SET tags of the statements before it.
    const QString path =
        QStringLiteral(LOOKAHEAD_FUZZ_CORPUS "/explain_output/pg15-index-scan-json-aligned.txt");
    const ExplainOutput plan = parseExplainOutput("SET\nSET\n" + readFile(path), path);
    QCOMPARE(plan.format, ExplainOutput::Format::Json);
    const ExplainNode* scan = plan.scanOf(QString());
    QVERIFY(scan != nullptr);
    QCOMPARE(scan->nodeType, QStringLiteral("Index Scan"));
    QCOMPARE(scan->index, QStringLiteral("idx"));
    QVERIFY(scan->backward);
    QCOMPARE(scan->actualRows.value(), 891.0);
    QVERIFY(scan->sharedHit.value() + scan->sharedRead.value() > 0);
}

void TestExplainOutput::damagedOutputIsRefused_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("says");
    QTest::newRow("empty") << QByteArray("\n\n") << QStringLiteral("it is empty");
    QTest::newRow("not a number") << QByteArray("Seq Scan on t\n  Buffers: shared hit=lots\n")
                                  << QStringLiteral("line 2: shared hit=lots is not a whole number");
    QTest::newRow("negative time") << QByteArray("Seq Scan on t\nExecution Time: -3 ms\n")
                                   << QStringLiteral(
                                          "line 2: Execution Time=-3 is not a number of at least 0");
    QTest::newRow("broken json") << QByteArray("[{\"Plan\": {\"Node Type\": ") << QStringLiteral("not JSON");
    QTest::newRow("json without plan")
        << QByteArray("[{\"Planning Time\": 1}]") << QStringLiteral("no \"Plan\" object");
    QTest::newRow("json bad count")
        << QByteArray("[{\"Plan\": {\"Node Type\": \"Seq Scan\", \"Shared Read Blocks\": 1.5}}]")
        << QStringLiteral("\"Shared Read Blocks\" is not a whole number");
    // Figures out of any query's range (issue 42 defect 9): 1e13 ms of reading became -2^63 ns, and
    // 2^63-1 waits were taken as the observed run's.
    QTest::newRow("shared read 1e13 ms")
        << QByteArray("Seq Scan on t\n  I/O Timings: shared read=1e13\n")
        << QStringLiteral(
               "line 2: I/O Timings read=1e13 is out of its range 0..1152921504606.847 ms (36 years)");
    QTest::newRow("waits 2^63-1")
        << QByteArray(
               "Seq Scan on t\n  I/O: count=258 waits=9223372036854775807 size=3.97 in-progress=4.84\n")
        << QStringLiteral("line 2: I/O waits=9223372036854775807 is out of its range 0..9007199254740992");
    QTest::newRow("execution time 1e300 ms")
        << QByteArray("Seq Scan on t\nExecution Time: 1e300 ms\n")
        << QStringLiteral("line 2: Execution Time=1e300 is out of its range 0..1152921504606.847 ms");
    QTest::newRow("json read time 1e13 ms")
        << QByteArray("[{\"Plan\": {\"Node Type\": \"Seq Scan\", \"Relation Name\": \"t\", "
                      "\"Shared I/O Read Time\": 1e13}}]")
        << QStringLiteral(
               "\"Shared I/O Read Time\"=10000000000000 is out of its range 0..1152921504606.847 ms");
    QTest::newRow("json waits 2^63")
        << QByteArray("[{\"Plan\": {\"Node Type\": \"Seq Scan\", \"Relation Name\": \"t\", "
                      "\"I/O Waits\": 9223372036854775807}}]")
        << QStringLiteral("\"I/O Waits\"=9.2233720368547758e+18 is out of its range 0..9007199254740992");
    QByteArray deep = "[{\"Plan\": ";
    for (int i = 0; i < 300; ++i)
        deep += "{\"Node Type\": \"Limit\", \"Plans\": [";
    deep += "{}";
    for (int i = 0; i < 300; ++i)
        deep += "]}";
    QTest::newRow("too deep") << deep + "}]" << QStringLiteral("nested deeper than 256");
}

void TestExplainOutput::damagedOutputIsRefused() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, says);
    const QString message = refusal(bytes);
    QVERIFY2(message.startsWith(QStringLiteral("EXPLAIN output plan.txt")), qPrintable(message));
    QVERIFY2(message.contains(says), qPrintable(message));
}

QTEST_GUILESS_MAIN(TestExplainOutput)
#include "tst_explain_output.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// `lookahead record` of plans with several scan nodes, against each real server the tests find
// (pg_installations.h): a hash join of two sequential scans, an Append over three partitions and a
// nested loop whose inner index scan is rescanned for each of 1,000 outer rows. Every node that
// reads a relation is listed with its own EXPLAIN figures; one is modelled, and its misses are the
// server's shared reads of it (docs/recording.md, "Plans").
#include "cli_process.h"
#include "experiment/explain_output.h"
#include "experiment/plan_nodes.h"
#include "gui/export_parsers.h"
#include "pg_server.h"
#include "recording.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

#include <memory>

using namespace la;

namespace {

// A table `name`(id int, pad text) of `rows` rows of 200 bytes, frozen and on disk: its size in blocks.
int frozenTable(const test::PgServer& server, const QString& name, int rows) {
    server.buildFrozen(
        QStringLiteral("CREATE TABLE %1(id int, pad text); "
                       "INSERT INTO %1 SELECT g, repeat('x', 200) FROM generate_series(1, %2) g")
            .arg(name)
            .arg(rows),
        name);
    return server.sqlLogged(QStringLiteral("SELECT pg_relation_size('%1') / 8192").arg(name)).toInt();
}

struct Recorded {
    QJsonObject doc;
    QString out;
};

// Records `query` with `settings` (--set) from an empty shared buffer pool (a restart empties it).
Recorded record(test::PgServer& server, const QString& query, const QStringList& settings,
                const QStringList& more = {}) {
    [&] { QVERIFY(server.restart().isEmpty()); }();
    const test::Recording recording = test::recordQuery(server.conninfo(), query, settings, more);
    [&] { QVERIFY2(recording.run.exitCode == 0, qPrintable(recording.run.err)); }();
    qInfo("%s%s", qPrintable(recording.run.err), qPrintable(recording.run.out));
    return {recording.doc, recording.run.out};
}

QJsonArray recordedNodes(const Recorded& recorded) {
    return recorded.doc[QStringLiteral("recorded")].toObject()[QStringLiteral("nodes")].toArray();
}

// The node of `nodes` that reads `relation`.
QJsonObject nodeOn(const QJsonArray& nodes, const QString& relation) {
    for (const QJsonValue& node : nodes)
        if (node[QStringLiteral("relation")].toString() == relation)
            return node.toObject();
    return {};
}

// The two nodes of a recorded join, on the relations `first` and `second`; empty if there are others.
std::pair<QJsonObject, QJsonObject> joinNodes(const Recorded& recorded, const QString& first,
                                              const QString& second) {
    const QJsonArray nodes = recordedNodes(recorded);
    if (nodes.size() != 2)
        return {};
    return {nodeOn(nodes, first), nodeOn(nodes, second)};
}

qint64 sharedRead(const QJsonObject& node) {
    return node[QStringLiteral("explain")].toObject()[QStringLiteral("shared_read")].toInteger(-1);
}

// The modelled run's entry for the node `nodeId`, with its "model" figures.
QJsonObject modelledEntry(const Recorded& recorded, qint64 nodeId) {
    const QJsonArray runs = recorded.doc[QStringLiteral("runs")].toArray();
    for (const QJsonValue& node : runs.last()[QStringLiteral("nodes")].toArray())
        if (node[QStringLiteral("node_id")].toInteger() == nodeId)
            return node.toObject();
    return {};
}

// The modelled node: the run's misses are the server's shared reads of it, and only it is modelled.
void checkModelledNode(const Recorded& recorded, const QJsonObject& expected) {
    const QJsonObject doc = recorded.doc;
    const qint64 id = expected[QStringLiteral("node_id")].toInteger();
    QCOMPARE(doc[QStringLiteral("recorded")].toObject()[QStringLiteral("modelled_node")].toInteger(), id);
    for (const QJsonValue& node : recordedNodes(recorded))
        QCOMPARE(node[QStringLiteral("modelled")].toBool(),
                 node[QStringLiteral("node_id")].toInteger() == id);
    const QJsonObject model = modelledEntry(recorded, id)[QStringLiteral("model")].toObject();
    qInfo("node %lld: shared read %lld, the model's misses %lld", id, sharedRead(expected),
          model[QStringLiteral("misses")].toInteger());
    QVERIFY(sharedRead(expected) > 0);
    QCOMPARE(model[QStringLiteral("misses")].toInteger(), sharedRead(expected));
    QCOMPARE(doc[QStringLiteral("runs")].toArray().last()[QStringLiteral("misses")].toInteger(),
             sharedRead(expected));
}

// Settings for a plan of sequential scans: no index or bitmap scan takes their place.
const QStringList kSequential{QStringLiteral("enable_indexscan=off"),
                              QStringLiteral("enable_bitmapscan=off")};

} // namespace

class TestRecordPlan : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void ownFiguresLeaveTheChildrensOut();
    void nodesOfAHostileSessionAreShownSafely();
    void hashJoinOfTwoSequentialScans_data();
    void hashJoinOfTwoSequentialScans();
    void appendOverThreePartitions_data();
    void appendOverThreePartitions();
    void nestedLoopRescansTheInnerIndexScan_data();
    void nestedLoopRescansTheInnerIndexScan();

private:
    std::unique_ptr<test::PgServer> m_server; // the row's server, for the cases with a server per row
};

// A case with a server row starts that server before it runs; every recording leaves the server's
// processes untraced after it.
void TestRecordPlan::init() {
    if (!QTest::currentDataTag())
        return;
    QFETCH(test::PgInstallation, installation);
    test::startRowServer(m_server, installation);
}

void TestRecordPlan::cleanup() {
    test::stopRowServer(m_server);
}

// EXPLAIN's buffers of a node count its children's: a node's own are what is left, and the nodes
// that read a relation are listed with them, in pre-order.
void TestRecordPlan::ownFiguresLeaveTheChildrensOut() {
    const QByteArray json = R"([{"Plan": {"Node Type": "Hash Join", "Shared Hit Blocks": 7,
        "Shared Read Blocks": 300, "Actual Loops": 1, "Plans": [
          {"Node Type": "Seq Scan", "Relation Name": "a", "Shared Hit Blocks": 5, "Shared Read Blocks": 100,
           "Actual Loops": 1, "Rows Removed by Filter": 12},
          {"Node Type": "Hash", "Shared Hit Blocks": 2, "Shared Read Blocks": 200, "Actual Loops": 1,
           "Plans": [{"Node Type": "Index Only Scan", "Relation Name": "b", "Index Name": "b_id",
                      "Shared Hit Blocks": 2, "Shared Read Blocks": 200, "Actual Loops": 40,
                      "Heap Fetches": 3}]}]}}])";
    const ExplainOutput plan = parseExplainOutput(json, QStringLiteral("plan.json"));
    QCOMPARE(ownFigure(plan, 0, &ExplainNode::sharedRead), std::optional<std::uint64_t>(0));
    QCOMPARE(ownFigure(plan, 0, &ExplainNode::sharedHit), std::optional<std::uint64_t>(0));
    QCOMPARE(ownFigure(plan, 2, &ExplainNode::sharedRead), std::optional<std::uint64_t>(0));
    QCOMPARE(ownFigure(plan, 3, &ExplainNode::sharedRead), std::optional<std::uint64_t>(200));
    const QJsonArray nodes = planNodesJson(plan, 19);
    QCOMPARE(nodes.size(), 2);
    QCOMPARE(nodes[0][QStringLiteral("node_id")].toInt(), 1);
    QCOMPARE(nodes[0][QStringLiteral("type")].toString(), QStringLiteral("Seq Scan"));
    QCOMPARE(nodes[0][QStringLiteral("server_stream")].toString(), QStringLiteral("a read stream"));
    QCOMPARE(nodes[0][QStringLiteral("explain")][QStringLiteral("shared_read")].toInt(), 100);
    QCOMPARE(nodes[0][QStringLiteral("explain")][QStringLiteral("rows_removed_by_filter")].toInt(), 12);
    QCOMPARE(nodes[1][QStringLiteral("node_id")].toInt(), 3);
    QCOMPARE(nodes[1][QStringLiteral("index")].toString(), QStringLiteral("b_id"));
    QCOMPARE(nodes[1][QStringLiteral("loops")].toInt(), 40);
    QCOMPARE(nodes[1][QStringLiteral("resets")].toInt(), 39);
    QCOMPARE(nodes[1][QStringLiteral("explain")][QStringLiteral("heap_fetches")].toInt(), 3);
    QVERIFY(nodes[1][QStringLiteral("server_stream")].toString().startsWith(QLatin1String("none")));
    QVERIFY(planNodesJson(plan, 15)[0][QStringLiteral("server_stream")].toString().contains(
        QLatin1String("15 has no read stream")));
}

// A session's "recorded" is untrusted: a node of the wrong type, a figure past any integer, a name
// with a terminal escape are shown as what they are (a node that is no object is left out), never as a
// crash or an escape.
void TestRecordPlan::nodesOfAHostileSessionAreShownSafely() {
    const QJsonObject recorded{
        {QStringLiteral("nodes"),
         QJsonArray{42, QStringLiteral("node"),
                    QJsonObject{{QStringLiteral("node_id"), 1e300},
                                {QStringLiteral("type"), QStringLiteral("Seq Scan\x1b[2J")},
                                {QStringLiteral("loops"), QStringLiteral("many")},
                                {QStringLiteral("explain"), QJsonArray{1, 2}},
                                {QStringLiteral("modelled"), true}}}}};
    const QString text = QString::fromStdString(planNodesText(recorded));
    QVERIFY2(!text.contains(QChar(0x1b)), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("Seq Scan")) && text.contains(QLatin1String("loops - (resets -)")),
             qPrintable(text));
    QJsonObject doc{{QStringLiteral("runs"), QJsonArray{QJsonObject{{QStringLiteral("misses"), 7}}}}};
    addPlanNodes(doc, recorded);
    const QJsonArray nodes = doc[QStringLiteral("runs")][0][QStringLiteral("nodes")].toArray();
    QCOMPARE(nodes.size(), 1);
    QCOMPARE(nodes[0][QStringLiteral("model")][QStringLiteral("misses")].toInt(), 7);
}

void TestRecordPlan::hashJoinOfTwoSequentialScans_data() {
    test::addInstallationRows();
}

// Both scans are listed with the server's shared reads of each; the larger is modelled, and the
// session keeps the nodes.
void TestRecordPlan::hashJoinOfTwoSequentialScans() {
    QFETCH(test::PgInstallation, installation);
    test::PgServer& server = *m_server;
    const int small = frozenTable(server, QStringLiteral("a"), 10000);
    const int large = frozenTable(server, QStringLiteral("b"), 30000);
    QVERIFY(small > 0 && large > small);

    QTemporaryDir out;
    const QString session = out.filePath(QStringLiteral("r.lookahead"));
    const Recorded recorded = record(server, QStringLiteral("SELECT count(*) FROM a JOIN b USING (id)"),
                                     kSequential + QStringList{QStringLiteral("enable_mergejoin=off"),
                                                               QStringLiteral("enable_nestloop=off")},
                                     {QStringLiteral("--save"), session});
    if (QTest::currentTestFailed())
        return;
    const auto [a, b] = joinNodes(recorded, QStringLiteral("a"), QStringLiteral("b"));
    for (const QJsonObject& node : {a, b}) {
        QCOMPARE(node[QStringLiteral("type")].toString(), QStringLiteral("Seq Scan"));
        QCOMPARE(node[QStringLiteral("loops")].toInteger(), 1);
        QCOMPARE(node[QStringLiteral("resets")].toInteger(), 0);
    }
    // From an empty pool a sequential scan reads every block of its table.
    QCOMPARE(sharedRead(a), small);
    QCOMPARE(sharedRead(b), large);
    QCOMPARE(a[QStringLiteral("server_stream")].toString().startsWith(QLatin1String("a read stream")),
             installation.major >= 17);
    checkModelledNode(recorded, b);
    QVERIFY(nodeOn(recordedNodes(recorded), QStringLiteral("a"))[QStringLiteral("why_not_modelled")]
                .toString()
                .contains(QLatin1String("--node")));
    // The observed run is the trace's reads of b alone.
    const QJsonObject observed = recorded.doc[QStringLiteral("runs")].toArray().first().toObject();
    QCOMPARE(observed[QStringLiteral("blocks")].toInteger(), large);

    QVERIFY2(recorded.out.contains(QStringLiteral("Seq Scan on a: loops 1 (resets 0), shared hit 0 read %1")
                                       .arg(QLocale(QLocale::English).toString(small))),
             qPrintable(recorded.out));
    const test::CliResult opened =
        test::runLookahead({QStringLiteral("--headless"), QStringLiteral("--open"), session}, 60'000);
    QCOMPARE(opened.exitCode, 0);
    QVERIFY2(opened.out.contains(QStringLiteral("Seq Scan on b: loops 1 (resets 0), shared hit 0 read %1; "
                                                "modelled")
                                     .arg(QLocale(QLocale::English).toString(large))),
             qPrintable(opened.out));
}

void TestRecordPlan::appendOverThreePartitions_data() {
    test::addInstallationRows();
}

// Three partitions, three scan nodes under the Append, each with its own reads; --node chooses one.
void TestRecordPlan::appendOverThreePartitions() {
    test::PgServer& server = *m_server;
    server.buildFrozen(
        QStringLiteral("CREATE TABLE p(id int, pad text) PARTITION BY RANGE (id); "
                       "CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10000); "
                       "CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10000) TO (30000); "
                       "CREATE TABLE p3 PARTITION OF p FOR VALUES FROM (30000) TO (60000); "
                       "INSERT INTO p SELECT g, repeat('x', 200) FROM generate_series(0, 59999) g"),
        QStringLiteral("p"));
    QMap<QString, qint64> blocks;
    for (const QString& partition : {QStringLiteral("p1"), QStringLiteral("p2"), QStringLiteral("p3")})
        blocks[partition] =
            server.sqlLogged(QStringLiteral("SELECT pg_relation_size('%1') / 8192").arg(partition))
                .toLongLong();
    QVERIFY(blocks[QStringLiteral("p3")] > blocks[QStringLiteral("p2")]);

    const QString query = QStringLiteral("SELECT count(*) FROM p");
    const Recorded recorded = record(server, query, kSequential);
    if (QTest::currentTestFailed())
        return;
    const QJsonArray nodes = recordedNodes(recorded);
    QCOMPARE(nodes.size(), 3);
    for (auto it = blocks.cbegin(); it != blocks.cend(); ++it) {
        const QJsonObject node = nodeOn(nodes, it.key());
        QCOMPARE(node[QStringLiteral("type")].toString(), QStringLiteral("Seq Scan"));
        QCOMPARE(sharedRead(node), it.value());
    }
    // Node ids are the plan's pre-order: distinct, and in the partitions' order under the Append.
    QVERIFY(nodeOn(nodes, QStringLiteral("p1"))[QStringLiteral("node_id")].toInt() <
            nodeOn(nodes, QStringLiteral("p2"))[QStringLiteral("node_id")].toInt());
    QVERIFY(nodeOn(nodes, QStringLiteral("p2"))[QStringLiteral("node_id")].toInt() <
            nodeOn(nodes, QStringLiteral("p3"))[QStringLiteral("node_id")].toInt());
    checkModelledNode(recorded, nodeOn(nodes, QStringLiteral("p3")));

    // --node models another partition, its misses the server's reads of it.
    const QString p1 =
        QString::number(nodeOn(nodes, QStringLiteral("p1"))[QStringLiteral("node_id")].toInt());
    const Recorded chosen = record(server, query, kSequential, {QStringLiteral("--node"), p1});
    if (QTest::currentTestFailed())
        return;
    checkModelledNode(chosen, nodeOn(recordedNodes(chosen), QStringLiteral("p1")));
}

void TestRecordPlan::nestedLoopRescansTheInnerIndexScan_data() {
    test::addInstallationRows();
}

// 1,000 outer rows, each a rescan of the inner index scan: its loops are 1,000 and its resets 999.
// Its visits per outer row come from the server, a reset between two outer rows, and it is the node
// modelled: the model resets its stream 999 times, visits the 1,000 rows the scan fetched and misses
// the heap blocks the server read (EXPLAIN's shared read less the index's pages, which the trace
// counts and the model, of the heap alone, does not walk).
void TestRecordPlan::nestedLoopRescansTheInnerIndexScan() {
    test::PgServer& server = *m_server;
    QVERIFY(server.frozenTable(100'000, true) > 0);
    // The outer rows' keys spread over the inner table.
    server.sqlLogged(QStringLiteral("ANALYZE r"));
    server.buildFrozen(
        QStringLiteral("CREATE TABLE o(id int, pad text); "
                       "INSERT INTO o SELECT g * 97, repeat('o', 200) FROM generate_series(1, 1000) g"),
        QStringLiteral("o"));

    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("nested-loop.lookahead"));
    const QString work = dir.filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkdir(work) &&
            QFile::setPermissions(work,
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    const Recorded recorded =
        record(server, QStringLiteral("SELECT count(r.pad) FROM o JOIN r ON r.id = o.id"),
               {QStringLiteral("enable_hashjoin=off"), QStringLiteral("enable_mergejoin=off"),
                QStringLiteral("enable_bitmapscan=off"), QStringLiteral("enable_material=off"),
                QStringLiteral("enable_memoize=off")},
               {QStringLiteral("--save"), session, QStringLiteral("--work-dir"), work});
    if (QTest::currentTestFailed())
        return;
    const auto [outer, inner] = joinNodes(recorded, QStringLiteral("o"), QStringLiteral("r"));
    QCOMPARE(outer[QStringLiteral("type")].toString(), QStringLiteral("Seq Scan"));
    QCOMPARE(inner[QStringLiteral("type")].toString(), QStringLiteral("Index Scan"));
    QCOMPARE(inner[QStringLiteral("index")].toString(), QStringLiteral("r_id"));
    QCOMPARE(inner[QStringLiteral("loops")].toInteger(), 1000);
    QCOMPARE(inner[QStringLiteral("resets")].toInteger(), 999);
    QVERIFY(inner[QStringLiteral("server_stream")].toString().startsWith(QLatin1String("none")));
    QVERIFY(outer[QStringLiteral("why_not_modelled")].toString().contains(QLatin1String("--node")));
    QVERIFY(!inner.contains(QStringLiteral("why_not_modelled")));
    const qint64 innerId = inner[QStringLiteral("node_id")].toInteger();
    QCOMPARE(recorded.doc[QStringLiteral("recorded")][QStringLiteral("modelled_node")].toInteger(), innerId);

    // The visits: one outer row after another, as the executor ran them, and every row the inner
    // scan fetched (one per outer row: each key is in r once).
    const QJsonObject visits = recorded.doc[QStringLiteral("recorded")][QStringLiteral("visits")].toObject();
    QCOMPARE(visits[QStringLiteral("source")].toString(), QStringLiteral("rescans"));
    QCOMPARE(visits[QStringLiteral("outer_rows")].toInteger(), 1000);
    QCOMPARE(visits[QStringLiteral("resets")].toInteger(), 999);
    const qint64 fetched =
        qRound64(inner[QStringLiteral("explain")][QStringLiteral("actual_rows")].toDouble() *
                 double(inner[QStringLiteral("loops")].toInteger()));
    QCOMPARE(fetched, 1000);
    QCOMPARE(visits[QStringLiteral("ctids")].toInteger(), fetched);
    QCOMPARE(visits[QStringLiteral("count")].toInteger(), fetched);

    // The model: a reset at each rescan, and the heap reads the server made.
    const QJsonObject model = modelledEntry(recorded, innerId)[QStringLiteral("model")].toObject();
    const QJsonObject run = recorded.doc[QStringLiteral("runs")].toArray().last().toObject();
    QCOMPARE(model[QStringLiteral("resets")].toInteger(), 999);
    QCOMPARE(run[QStringLiteral("resets")].toInteger(), 999);
    QCOMPARE(run[QStringLiteral("blocks")].toInteger(), fetched);
    const QJsonObject observed = recorded.doc[QStringLiteral("runs")].toArray().first().toObject();
    const QJsonObject reconciliation = recorded.doc[QStringLiteral("reconciliation")].toObject();
    qInfo("inner node: shared read %lld, the model's misses %lld, the trace's heap reads %lld; %s",
          sharedRead(inner), run[QStringLiteral("misses")].toInteger(),
          observed[QStringLiteral("blocks")].toInteger(),
          QJsonDocument(reconciliation).toJson(QJsonDocument::Compact).constData());
    QCOMPARE(run[QStringLiteral("misses")].toInteger(), observed[QStringLiteral("blocks")].toInteger());
    // EXPLAIN's shared read is the heap's blocks and the index's pages; the trace of the index's file
    // counts those, and what is left is the model's misses: the figures reconcile.
    const qint64 indexPages = reconciliation[QStringLiteral("index_pages")].toInteger(-1);
    QVERIFY(indexPages > 0);
    QCOMPARE(run[QStringLiteral("misses")].toInteger(), sharedRead(inner) - indexPages);
    QCOMPARE(reconciliation[QStringLiteral("unexplained")].toInteger(-1), 0);

    // The plan's visits (docs/plan-runs.md): the outer Seq Scan and the inner Index Scan as two streams
    // of one backend, in the executor's order, run together on one device and pool. The outer stream
    // reads every block of o, cold: EXPLAIN's shared read of it; the inner one is reset at every outer
    // row and misses what the inner node's model alone did (the two tables share no block).
    const QJsonObject plan = visits[QStringLiteral("plan")].toObject();
    const QJsonArray command = plan[QStringLiteral("command")].toArray();
    QVERIFY2(command.size() > 4 && command[0].toString() == QLatin1String("lookahead"),
             QJsonDocument(visits).toJson(QJsonDocument::Compact).constData());
    QStringList planArgs;
    for (qsizetype i = 1; i < command.size(); ++i)
        planArgs << command[i].toString();
    const QString planJson = dir.filePath(QStringLiteral("plan.json"));
    const test::CliResult planRun =
        test::runLookahead(planArgs + QStringList{QStringLiteral("--summary-json"), planJson}, 120'000);
    QVERIFY2(planRun.exitCode == 0, qPrintable(planRun.err));
    qInfo("%s", qPrintable(planRun.out));
    const QJsonArray streams = test::summaryRun(planJson)[QStringLiteral("streams")].toArray();
    QCOMPARE(streams.size(), qsizetype(2));
    QCOMPARE(streams[1][QStringLiteral("resets")].toInteger(), 999);
    QCOMPARE(streams[1][QStringLiteral("blocks")].toInteger(), fetched);
    QCOMPARE(streams[1][QStringLiteral("misses")].toInteger(), run[QStringLiteral("misses")].toInteger());
    QCOMPARE(streams[0][QStringLiteral("resets")].toInteger(), 0);
    QCOMPARE(streams[0][QStringLiteral("misses")].toInteger(), sharedRead(outer));
    QCOMPARE(streams[0][QStringLiteral("blocks")].toInteger(), sharedRead(outer));
    QVERIFY2(recorded.out.contains(QLatin1String("Index Scan on r using r_id: loops 1,000 (resets 999)")),
             qPrintable(recorded.out));

    // The saved recording, opened with --node: the inner node is the runs' own; the outer one has
    // none, and is refused saying why and how to model it; a node the plan lacks names those it has.
    const QString innerNode = QString::number(innerId),
                  outerId = QString::number(outer[QStringLiteral("node_id")].toInteger());
    const auto open = [&](const QString& node, const QStringList& more = {}) {
        return test::runLookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--open"), session,
                                              QStringLiteral("--node"), node} +
                                      more,
                                  120'000);
    };
    const QString png = dir.filePath(QStringLiteral("inner.png"));
    test::CliResult opened = open(innerNode, {QStringLiteral("--export-png"), png});
    QVERIFY2(opened.exitCode == 0, qPrintable(opened.err));
    QVERIFY2(opened.out.startsWith(
                 QStringLiteral("the runs are of node %1 Index Scan on r using r_id: loops 1,000 "
                                "(resets 999)")
                     .arg(innerNode)),
             qPrintable(opened.out));
    // Its caption names the node, not the block list the recording wrote in its own directory.
    const QString title = test::pngText(png, QStringLiteral("Title"));
    QVERIFY2(title.startsWith(QStringLiteral("Lookahead — node %1 (Index Scan on r using r_id) of a query "
                                             "recorded on PostgreSQL ")
                                  .arg(innerNode)) &&
                 !title.contains(QLatin1String("visits")),
             qPrintable(title));
    opened = open(outerId, {QStringLiteral("--export-png"), dir.filePath(QStringLiteral("outer.png"))});
    QCOMPARE(opened.exitCode, 2);
    QVERIFY2(
        opened.err.contains(
            QStringLiteral("has no runs of node %1 (Seq Scan on o): the recording did not model it (")
                .arg(outerId)) &&
            opened.err.contains(QStringLiteral("its runs are of node %1 (Index Scan on r using r_id). To "
                                               "model node %2, record the query again with lookahead "
                                               "record --node %2")
                                    .arg(innerNode, outerId)),
        qPrintable(opened.err));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("outer.png"))));
    opened = open(QStringLiteral("99"));
    QCOMPARE(opened.exitCode, 2);
    QVERIFY2(opened.err.contains(QStringLiteral("has no node 99 that reads a relation; its plan's are %1, %2")
                                     .arg(std::min(outerId, innerNode), std::max(outerId, innerNode))),
             qPrintable(opened.err));
}

QTEST_GUILESS_MAIN(TestRecordPlan)
#include "tst_record_plan.moc"

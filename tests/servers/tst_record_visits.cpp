// SPDX-License-Identifier: GPL-3.0-or-later
// `lookahead record` takes the visits of an index or bitmap heap scan from the server that ran it,
// against each real server the tests find (pg_installations.h): an Index Scan on a text key and on a
// two-column key, forward and backward, an Index Only Scan (its heap fetches only, with pg_visibility and
// without), a Bitmap Heap Scan over a BitmapAnd and a lossy one. Each is checked against an independent
// query of the same rows and against the server's shared reads of a cold start (docs/recording.md,
// "Plans"). And a recording writes nothing on the server.
#include "input_error.h"
#include "observed/trace_importer.h"
#include "pg_server.h"
#include "recording.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

using namespace la;

namespace {

struct Recorded {
    QJsonObject doc;
    std::unique_ptr<QTemporaryDir> dir; // holds the work directory: its visits.txt and query.trace

    QJsonObject recorded() const { return doc[QStringLiteral("recorded")].toObject(); }
    QJsonObject visits() const { return recorded()[QStringLiteral("visits")].toObject(); }
    QString work() const { return dir->filePath(QStringLiteral("work")); }
    QJsonObject model() const { return doc[QStringLiteral("runs")].toArray().last().toObject(); }
    // The modelled node's entry, with its own EXPLAIN figures.
    QJsonObject node() const {
        const qint64 id = recorded()[QStringLiteral("modelled_node")].toInteger(-1);
        for (const QJsonValue& node : recorded()[QStringLiteral("nodes")].toArray())
            if (node[QStringLiteral("node_id")].toInteger() == id)
                return node.toObject();
        return {};
    }
    qint64 explain(const char* figure) const {
        return node()[QStringLiteral("explain")].toObject()[QLatin1String(figure)].toInteger(-1);
    }
    // The blocks the model visits: the server's rows, a row on the page of the one before none.
    QStringList visitedBlocks() const {
        QFile file(work() + QStringLiteral("/visits.txt"));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QString::fromLatin1(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    // The traced backend's reads of `file` (a path under the data directory): one a block where the
    // server reads without a stream; none where the trace has no read of it.
    qint64 tracedReads(const QString& file) const {
        try {
            const std::optional<ObservedTrace> trace =
                importTrace({(work() + QStringLiteral("/query.trace")).toStdString(),
                             TraceFormat::Auto,
                             file.toStdString(),
                             {}});
            return trace ? qint64(trace->reads.size()) : 0;
        } catch (const InputError&) {
            return 0;
        }
    }
};

// Records `query` with `settings` (--set) from an empty shared buffer pool (a restart empties it, unless
// `restart` is false), and checks that the node modelled is a `modelledNode` where one is named.
Recorded record(test::PgServer& server, const QString& query, const QStringList& settings,
                const QString& modelledNode = {}, bool restart = true) {
    Recorded recorded{{}, std::make_unique<QTemporaryDir>()};
    if (restart)
        [&] { QVERIFY(server.restart().isEmpty()); }();
    [&] { QVERIFY(QDir().mkpath(recorded.work())); }();
    const test::Recording recording = test::recordQuery(server.conninfo(), query, settings,
                                                        {QStringLiteral("--work-dir"), recorded.work()});
    [&] { QVERIFY2(recording.run.exitCode == 0, qPrintable(recording.run.err)); }();
    qInfo("%s", qPrintable(recording.run.err));
    recorded.doc = recording.doc;
    if (!modelledNode.isEmpty())
        [&] { QCOMPARE(recorded.node()[QStringLiteral("type")].toString(), modelledNode); }();
    return recorded;
}

// The heap blocks of `sql`'s ctids as the server lists them, a row on the block of the row before
// it left out (no new visit: the page is still pinned).
QStringList blocksOf(const test::PgServer& server, const QString& sql) {
    QStringList blocks;
    for (const QString& block : server.sqlLogged(sql).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (blocks.isEmpty() || blocks.last() != block)
            blocks << block;
    return blocks;
}

QString filePath(const test::PgServer& server, const QString& relation) {
    return server.sqlLogged(QStringLiteral("SELECT pg_relation_filepath('%1')").arg(relation));
}

// An Index Scan's visits came from the server, exact, and are `expected`; the model misses the heap
// blocks the server read: its shared reads less its index's.
void checkIndexScan(const test::PgServer& server, const Recorded& recorded, const QString& index,
                    const QStringList& expected) {
    const QJsonObject visits = recorded.visits();
    QCOMPARE(recorded.node()[QStringLiteral("type")].toString(), QStringLiteral("Index Scan"));
    QCOMPARE(recorded.node()[QStringLiteral("index")].toString(), index);
    QCOMPARE(visits[QStringLiteral("source")].toString(), QStringLiteral("server"));
    QVERIFY2(visits[QStringLiteral("exact")].toBool(),
             qPrintable(visits[QStringLiteral("why_not_exact")].toString()));
    // The node says it too.
    QCOMPARE(recorded.node()[QStringLiteral("visits")][QStringLiteral("exact")].toBool(), true);
    QVERIFY(expected.size() > 100);
    QCOMPARE(visits[QStringLiteral("count")].toInteger(), qint64(expected.size()));
    QCOMPARE(recorded.visitedBlocks(), expected);

    const qint64 heapReads = recorded.tracedReads(
        recorded.recorded()[QStringLiteral("relation")].toObject()[QStringLiteral("file")].toString());
    const qint64 indexReads = recorded.tracedReads(filePath(server, index));
    const qint64 misses = recorded.model()[QStringLiteral("misses")].toInteger();
    qInfo("shared read %lld = heap %lld + index %lld; the model's misses %lld",
          recorded.explain("shared_read"), heapReads, indexReads, misses);
    QVERIFY(heapReads > 0 && indexReads > 0);
    QCOMPARE(recorded.explain("shared_read"), heapReads + indexReads);
    QCOMPARE(misses, heapReads);
}

// The first node of `type` in a plan of FORMAT JSON.
QJsonObject planNode(const QJsonValue& plan, const QString& type) {
    std::vector<QJsonObject> nodes{plan.toArray().at(0).toObject()[QStringLiteral("Plan")].toObject()};
    while (!nodes.empty()) {
        const QJsonObject node = nodes.back();
        nodes.pop_back();
        if (node[QStringLiteral("Node Type")].toString() == type)
            return node;
        for (const QJsonValue& child : node[QStringLiteral("Plans")].toArray())
            nodes.push_back(child.toObject());
    }
    return {};
}

// What a recording could write on the server: the extensions, the tables' files and sizes, and the
// WAL insert position (of a quiet server: nothing else connected, no autovacuum, wal_level minimal).
struct ServerState {
    QString extensions, relations, walInsert;
    bool operator==(const ServerState&) const = default;
};

ServerState serverState(const test::PgServer& server) {
    return {server.sqlLogged(
                QStringLiteral("SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension")),
            server.sqlLogged(QStringLiteral(
                "SELECT string_agg(relname || ':' || relfilenode || ':' || relpages, ' ' ORDER BY relname) "
                "FROM pg_class WHERE relnamespace = 'public'::regnamespace")),
            server.sqlLogged(QStringLiteral("SELECT pg_current_wal_insert_lsn()"))};
}

const QStringList kIndexScan{QStringLiteral("enable_seqscan=off"), QStringLiteral("enable_bitmapscan=off"),
                             QStringLiteral("enable_indexonlyscan=off")};

} // namespace

class TestRecordVisits : public QObject {
    Q_OBJECT
private slots:
    void initTestCase_data();
    void init();
    void cleanup();
    void indexScanOnATextKey();
    void indexScanOnTwoColumns();
    void indexOnlyScanVisitsItsHeapFetches();
    void bitmapHeapScanOverABitmapAnd();
    void indexOnlyScanEveryVisitFetched();
    void indexOnlyScanFetchingNothing();
    void lossyBitmapHeapScan();
    void recordingWritesNothing();

private:
    std::unique_ptr<test::PgServer> m_server;
};

// Every case runs on each server.
void TestRecordVisits::initTestCase_data() {
    test::addInstallationRows();
}

void TestRecordVisits::init() {
    QFETCH_GLOBAL(test::PgInstallation, installation);
    test::startRowServer(m_server, installation);
}

void TestRecordVisits::cleanup() {
    test::stopRowServer(m_server);
}

// A text key in the database's collation: the visits are the heap order of ORDER BY name.
void TestRecordVisits::indexScanOnATextKey() {
    test::PgServer& server = *m_server;
    server.buildFrozen(QStringLiteral("CREATE TABLE k(id int, name text, pad text); "
                                      "INSERT INTO k SELECT g, md5(g::text), repeat('k', 200) "
                                      "FROM generate_series(1, 30000) g; CREATE INDEX k_name ON k(name)"),
                       QStringLiteral("k"));
    const QString where = QStringLiteral(" WHERE name >= '4' AND name < '6'");
    const Recorded recorded = record(server, QStringLiteral("SELECT count(pad) FROM k") + where, kIndexScan);
    if (QTest::currentTestFailed())
        return;
    checkIndexScan(server, recorded, QStringLiteral("k_name"),
                   blocksOf(server, QStringLiteral("SELECT (ctid::text::point)[0]::bigint FROM k") + where +
                                        QStringLiteral(" ORDER BY name, ctid")));
}

// A key of two columns, scanned forward and backward: the visits are the heap order of ORDER BY over
// both columns, each way; a Filter's rows are visits too.
void TestRecordVisits::indexScanOnTwoColumns() {
    test::PgServer& server = *m_server;
    server.buildFrozen(
        QStringLiteral("CREATE TABLE m(a int, b text, pad text); "
                       "INSERT INTO m SELECT g % 50, md5(g::text), repeat(chr(97 + g % 3), 200) "
                       "FROM generate_series(1, 30000) g; CREATE INDEX m_ab ON m(a, b)"),
        QStringLiteral("m"));
    const QString where = QStringLiteral(" WHERE a BETWEEN 10 AND 14");
    const QString blocks = QStringLiteral("SELECT (ctid::text::point)[0]::bigint FROM m") + where;

    const Recorded forward =
        record(server, QStringLiteral("SELECT count(pad) FROM m") + where + QStringLiteral(" AND pad > 'b'"),
               kIndexScan);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(forward.node()[QStringLiteral("explain")]
                .toObject()[QStringLiteral("rows_removed_by_filter")]
                .toInteger() > 0);
    checkIndexScan(server, forward, QStringLiteral("m_ab"),
                   blocksOf(server, blocks + QStringLiteral(" ORDER BY a, b, ctid")));
    if (QTest::currentTestFailed())
        return;

    const Recorded backward = record(
        server, QStringLiteral("SELECT pad FROM m") + where + QStringLiteral(" ORDER BY a DESC, b DESC"),
        kIndexScan);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(backward.visits()[QStringLiteral("query")].toString().contains(QLatin1String("DESC")));
    checkIndexScan(server, backward, QStringLiteral("m_ab"),
                   blocksOf(server, blocks + QStringLiteral(" ORDER BY a DESC, b DESC, ctid DESC")));
}

// Rows added after a VACUUM take the pages' free space, and the visibility map no longer marks those
// pages all visible: the rows on them are the Index Only Scan's heap fetches. Without pg_visibility Heap
// Fetches is a count only: the visits fall back to the trace, which is said, with what to do. With
// pg_visibility (installed by the test: a recording never installs it) they are its visits, in index order.
void TestRecordVisits::indexOnlyScanVisitsItsHeapFetches() {
    test::PgServer& server = *m_server;
    server.buildFrozen(
        QStringLiteral("CREATE TABLE v(id int, pad text); "
                       "INSERT INTO v SELECT g, repeat('v', 200) FROM generate_series(1, 20000) g; "
                       "CREATE INDEX v_id ON v(id)"),
        QStringLiteral("v"));
    server.sqlLogged(
        QStringLiteral("INSERT INTO v SELECT g * 100, 'new' FROM generate_series(1, 40) g; ANALYZE v"));
    server.sqlLogged(QStringLiteral("CHECKPOINT"));
    const QString query = QStringLiteral("SELECT count(id) FROM v WHERE id < 5000");
    const QStringList settings{QStringLiteral("enable_seqscan=off"), QStringLiteral("enable_bitmapscan=off")};

    const Recorded withoutMap = record(server, query, settings);
    if (QTest::currentTestFailed())
        return;
    const QJsonObject fellBack = withoutMap.visits();
    QCOMPARE(fellBack[QStringLiteral("source")].toString(), QStringLiteral("trace"));
    const QString why = fellBack[QStringLiteral("why")].toString();
    QVERIFY2(why.contains(QLatin1String("a count, not which ones")) &&
                 why.contains(QLatin1String("pg_visibility is not installed in this database, and record "
                                            "never installs it")) &&
                 why.contains(QLatin1String("a superuser can run CREATE EXTENSION pg_visibility")),
             qPrintable(why));
    QCOMPARE(server.sqlLogged(QStringLiteral("SELECT count(*) FROM pg_extension WHERE extname = "
                                             "'pg_visibility'")),
             QStringLiteral("0"));

    const bool visibilityMap =
        server.sqlLogged(
            QStringLiteral("SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_visibility'")) ==
        QLatin1String("1");
    if (!visibilityMap)
        QSKIP("pg_visibility is not available on this server");
    server.sqlLogged(QStringLiteral("CREATE EXTENSION pg_visibility"));
    const Recorded recorded = record(server, query, settings, QStringLiteral("Index Only Scan"));
    if (QTest::currentTestFailed())
        return;
    const qint64 fetches =
        recorded.node()[QStringLiteral("explain")].toObject()[QStringLiteral("heap_fetches")].toInteger();
    // A page that took an added row is no longer all visible: the rows below 5,000 on those pages,
    // in index order.
    const QStringList added = blocksOf(
        server,
        QStringLiteral("SELECT (ctid::text::point)[0]::bigint FROM v WHERE id < 5000 AND "
                       "(ctid::text::point)[0] IN (SELECT (ctid::text::point)[0] FROM v WHERE pad = 'new') "
                       "ORDER BY id, ctid"));
    QVERIFY(fetches >= qint64(added.size()));
    const QJsonObject visits = recorded.visits();
    QCOMPARE(visits[QStringLiteral("source")].toString(), QStringLiteral("server"));
    QCOMPARE(visits[QStringLiteral("visibility")].toString(), QStringLiteral("pg_visibility"));
    QVERIFY2(visits[QStringLiteral("exact")].toBool(),
             qPrintable(visits[QStringLiteral("why_not_exact")].toString()));
    QCOMPARE(recorded.visitedBlocks(), added);
    // The node's shared reads: its heap fetches' blocks, the index's and the visibility map's pages.
    const QString heap = filePath(server, QStringLiteral("v"));
    const qint64 heapReads = recorded.tracedReads(heap);
    const qint64 otherReads = recorded.tracedReads(filePath(server, QStringLiteral("v_id"))) +
                              recorded.tracedReads(heap + QStringLiteral("_vm"));
    const qint64 misses = recorded.model()[QStringLiteral("misses")].toInteger();
    qInfo("shared read %lld = heap %lld + index and visibility map %lld; the model's misses %lld",
          recorded.explain("shared_read"), heapReads, otherReads, misses);
    QVERIFY(heapReads > 0);
    QCOMPARE(misses, heapReads);
    // The trace need not name the file of every page the node counts (on 15, one of 26).
    QVERIFY(recorded.explain("shared_read") >= heapReads + otherReads);
}

// Two indexes ANDed into one bitmap: the visits are the blocks of the matching rows in ascending
// order, as many as EXPLAIN's exact heap blocks, and the model misses what the node itself read.
void TestRecordVisits::bitmapHeapScanOverABitmapAnd() {
    test::PgServer& server = *m_server;
    server.buildFrozen(QStringLiteral("CREATE TABLE b(a int, c int, pad text); "
                                      "INSERT INTO b SELECT (g * 7) % 1000, (g * 13) % 997, repeat('b', 200) "
                                      "FROM generate_series(1, 100000) g; "
                                      "CREATE INDEX b_a ON b(a); CREATE INDEX b_c ON b(c)"),
                       QStringLiteral("b"));
    const QString where = QStringLiteral(" WHERE a < 60 AND c < 60");
    const Recorded recorded =
        record(server, QStringLiteral("SELECT count(pad) FROM b") + where,
               {QStringLiteral("enable_seqscan=off"), QStringLiteral("enable_indexscan=off")},
               QStringLiteral("Bitmap Heap Scan"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY(QJsonDocument(
                recorded.recorded()[QStringLiteral("plan")].toObject()[QStringLiteral("traced")].toArray())
                .toJson()
                .contains("\"BitmapAnd\""));
    const QJsonObject visits = recorded.visits();
    QCOMPARE(visits[QStringLiteral("source")].toString(), QStringLiteral("server"));
    QVERIFY2(visits[QStringLiteral("exact")].toBool(),
             qPrintable(visits[QStringLiteral("why_not_exact")].toString()));
    // Each matching row's block, once, in ascending order.
    QStringList expected;
    std::vector<qint64> rows;
    for (const QString& block :
         blocksOf(server, QStringLiteral("SELECT (ctid::text::point)[0]::bigint FROM b") + where))
        rows.push_back(block.toLongLong());
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (const qint64 block : rows)
        expected << QString::number(block);
    QVERIFY(expected.size() > 100);
    QCOMPARE(recorded.visitedBlocks(), expected);
    const qint64 misses = recorded.model()[QStringLiteral("misses")].toInteger();
    qInfo("heap blocks %lld, shared read %lld, the model's misses %lld", qint64(expected.size()),
          recorded.explain("shared_read"), misses);
    QCOMPARE(recorded.explain("shared_read"), qint64(expected.size()));
    QCOMPARE(misses, recorded.explain("shared_read"));
}

// A table never vacuumed has no page marked all visible: every visit of an Index Only Scan reaches the
// heap, Heap Fetches says so, and without pg_visibility the visits are exact all the same: those of the
// index scan, in index order.
void TestRecordVisits::indexOnlyScanEveryVisitFetched() {
    test::PgServer& server = *m_server;
    server.sqlLogged(
        QStringLiteral("CREATE TABLE w(id int, pad text); "
                       "INSERT INTO w SELECT g, repeat('w', 200) FROM generate_series(1, 20000) g "
                       "ORDER BY hashint4(g); CREATE INDEX w_id ON w(id)"));
    server.sqlLogged(QStringLiteral("ANALYZE w"));
    server.sqlLogged(QStringLiteral("CHECKPOINT"));
    const QString where = QStringLiteral(" WHERE id < 3000");
    const Recorded recorded =
        record(server, QStringLiteral("SELECT count(id) FROM w") + where,
               {QStringLiteral("enable_seqscan=off"), QStringLiteral("enable_bitmapscan=off")},
               QStringLiteral("Index Only Scan"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(recorded.explain("heap_fetches"), recorded.explain("actual_rows"));
    const QJsonObject visits = recorded.visits();
    QCOMPARE(visits[QStringLiteral("source")].toString(), QStringLiteral("server"));
    QCOMPARE(visits[QStringLiteral("visibility")].toString(), QStringLiteral("Heap Fetches: every visit"));
    QVERIFY2(visits[QStringLiteral("exact")].toBool(),
             qPrintable(visits[QStringLiteral("why_not_exact")].toString()));
    const QStringList expected =
        blocksOf(server, QStringLiteral("SELECT (ctid::text::point)[0]::bigint FROM w") + where +
                             QStringLiteral(" ORDER BY id, ctid"));
    QVERIFY(expected.size() > 100);
    QCOMPARE(recorded.visitedBlocks(), expected);
    QCOMPARE(visits[QStringLiteral("count")].toInteger(), qint64(expected.size()));
    QCOMPARE(server.sqlLogged(QStringLiteral("SELECT count(*) FROM pg_extension WHERE extname = "
                                             "'pg_visibility'")),
             QStringLiteral("0"));
}

// A vacuumed table: the visibility map answers every visit of an Index Only Scan, which reads its index
// and no heap block (Heap Fetches: 0). Alone, it leaves the model nothing to follow, and the recording
// says so and how to record its heap fetches; beside a node that reads its table, that node is modelled.
void TestRecordVisits::indexOnlyScanFetchingNothing() {
    test::PgServer& server = *m_server;
    server.buildFrozen(
        QStringLiteral("CREATE TABLE f(id int, pad text); "
                       "INSERT INTO f SELECT g, repeat('f', 200) FROM generate_series(1, 20000) g; "
                       "CREATE INDEX f_id ON f(id); CREATE TABLE s AS SELECT g FROM "
                       "generate_series(1, 5000) g"),
        QStringLiteral("f, s"));
    const QStringList settings{QStringLiteral("enable_seqscan=off"), QStringLiteral("enable_bitmapscan=off")};
    const QString query = QStringLiteral("SELECT count(id) FROM f WHERE id < 5000");

    QVERIFY(server.restart().isEmpty());
    const test::Recording alone = test::recordQuery(server.conninfo(), query, settings);
    QCOMPARE(alone.run.exitCode, 1);
    const QString said = alone.run.err;
    for (const char* part : {"node 1 (Index Only Scan on public.f) has nothing to model",
                             "fetched no heap block (Heap Fetches: 0)", "each of its 4999 visits",
                             "--set enable_indexonlyscan=off"})
        QVERIFY2(said.contains(QLatin1String(part)), qPrintable(said));
    QVERIFY2(!said.contains(QLatin1String("not which ones")), qPrintable(said));

    // The advice holds: as a plain Index Scan its visits are the heap's.
    QVERIFY(server.restart().isEmpty());
    const test::Recording plain = test::recordQuery(
        server.conninfo(), query, settings + QStringList{QStringLiteral("enable_indexonlyscan=off")});
    QVERIFY2(plain.run.exitCode == 0, qPrintable(plain.run.err));
    const QJsonObject recorded = plain.doc[QStringLiteral("recorded")].toObject();
    QCOMPARE(recorded[QStringLiteral("relation")].toObject()[QStringLiteral("scan")].toString(),
             QStringLiteral("Index Scan"));
    QVERIFY(
        plain.doc[QStringLiteral("runs")].toArray().last().toObject()[QStringLiteral("blocks")].toInteger() >
        0);

    // Beside a Seq Scan, the Seq Scan is modelled and the Index Only Scan's entry says why it is not.
    QVERIFY(server.restart().isEmpty());
    const test::Recording both = test::recordQuery(
        server.conninfo(), query + QStringLiteral(" UNION ALL SELECT count(g) FROM s"), settings);
    QVERIFY2(both.run.exitCode == 0, qPrintable(both.run.err));
    const QJsonObject plan = both.doc[QStringLiteral("recorded")].toObject();
    QCOMPARE(plan[QStringLiteral("relation")].toObject()[QStringLiteral("scan")].toString(),
             QStringLiteral("Seq Scan"));
    bool saidWhy = false;
    for (const QJsonValue& node : plan[QStringLiteral("nodes")].toArray())
        if (node[QStringLiteral("type")].toString() == QLatin1String("Index Only Scan"))
            saidWhy = node[QStringLiteral("why_not_modelled")].toString().contains(
                QLatin1String("fetched no heap block (Heap Fetches: 0)"));
    QVERIFY2(saidWhy, qPrintable(QJsonDocument(plan[QStringLiteral("nodes")].toArray()).toJson()));
}

// A bitmap too large for work_mem turns lossy: EXPLAIN counts lossy heap blocks, the recording says the
// visits are not exact and why, and the figures reconcile: the server read every exact and lossy block
// (its shared reads from a cold start), the visits are the blocks with a matching row, and the rest are
// the blocks of lossy ranges no row of which matches.
void TestRecordVisits::lossyBitmapHeapScan() {
    test::PgServer& server = *m_server;
    server.sqlLogged(QStringLiteral("CREATE TABLE b(a int, pad text); "
                                    "INSERT INTO b SELECT (g * 7) % 1000, repeat('b', 200) "
                                    "FROM generate_series(1, 100000) g; CREATE INDEX b_a ON b(a)"));
    server.sqlLogged(QStringLiteral("VACUUM (FREEZE, ANALYZE) b"));
    server.sqlLogged(QStringLiteral("CHECKPOINT"));
    const QString where = QStringLiteral(" WHERE a < 300");
    const Recorded recorded =
        record(server, QStringLiteral("SELECT count(pad) FROM b") + where,
               {QStringLiteral("enable_seqscan=off"), QStringLiteral("enable_indexscan=off"),
                QStringLiteral("work_mem=64kB")},
               QStringLiteral("Bitmap Heap Scan"));
    if (QTest::currentTestFailed())
        return;
    // The plan as it ran: the untraced run's where there is one (docs/recording.md).
    const QJsonObject plans = recorded.recorded().value(QStringLiteral("plan")).toObject();
    const QJsonObject plan = planNode(plans.value(QStringLiteral("untraced")).isUndefined()
                                          ? plans.value(QStringLiteral("traced"))
                                          : plans.value(QStringLiteral("untraced")),
                                      QStringLiteral("Bitmap Heap Scan"));
    const qint64 exact = plan[QStringLiteral("Exact Heap Blocks")].toInteger();
    const qint64 lossy = plan[QStringLiteral("Lossy Heap Blocks")].toInteger();
    QVERIFY2(lossy > 0, qPrintable(QString::number(lossy)));
    const QJsonObject visits = recorded.visits();
    QCOMPARE(visits[QStringLiteral("source")].toString(), QStringLiteral("server"));
    QCOMPARE(visits[QStringLiteral("exact")].toBool(true), false);
    const QString why = visits[QStringLiteral("why_not_exact")].toString();
    QVERIFY2(why.contains(QStringLiteral("the bitmap was lossy for %1 blocks").arg(lossy)), qPrintable(why));
    QCOMPARE(recorded.node()[QStringLiteral("visits")][QStringLiteral("exact")].toBool(true), false);

    std::vector<qint64> rows;
    for (const QString& block :
         blocksOf(server, QStringLiteral("SELECT (ctid::text::point)[0]::bigint FROM b") + where))
        rows.push_back(block.toLongLong());
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    const qint64 matching = qint64(rows.size());
    QCOMPARE(visits[QStringLiteral("count")].toInteger(), matching);
    qInfo(
        "exact %lld + lossy %lld heap blocks, shared read %lld, blocks with a matching row %lld, the model's "
        "misses %lld",
        exact, lossy, recorded.explain("shared_read"), matching,
        recorded.model()[QStringLiteral("misses")].toInteger());
    QCOMPARE(recorded.explain("shared_read"), exact + lossy);
    QVERIFY(matching <= exact + lossy);
    QCOMPARE(recorded.model()[QStringLiteral("misses")].toInteger(), matching);
}

// A recording writes nothing on the server (docs/recording.md, "What record runs on the server"), on a
// database without pg_buffercache and pg_visibility: afterwards the extensions, the tables' files and
// sizes and the WAL insert position are as before. The server is quiet (wal_level minimal: no standby
// snapshots; no autovacuum; every table frozen, so that no query sets a hint bit, which with data checksums,
// 18's default, is logged), and the probe sees a write: installing an extension moves the WAL position.
void TestRecordVisits::recordingWritesNothing() {
    test::PgServer& server = *m_server;
    server.sqlLogged(QStringLiteral("ALTER SYSTEM SET wal_level = minimal"));
    server.sqlLogged(QStringLiteral("ALTER SYSTEM SET max_wal_senders = 0"));
    server.sqlLogged(QStringLiteral("CREATE TABLE v(id int, name text, pad text); "
                                    "INSERT INTO v SELECT g, md5(g::text), repeat('v', 200) "
                                    "FROM generate_series(1, 20000) g; "
                                    "CREATE INDEX v_id ON v(id); CREATE INDEX v_name ON v(name)"));
    server.sqlLogged(QStringLiteral("ANALYZE v"));
    server.sqlLogged(QStringLiteral("VACUUM (FREEZE)"));

    const QStringList bitmap{QStringLiteral("enable_seqscan=off"), QStringLiteral("enable_indexscan=off")};
    // An index scan whose visits the server gives (a text key), a bitmap heap scan's, a sequential scan.
    for (const auto& [query, settings, source] :
         {std::tuple{QStringLiteral("SELECT count(pad) FROM v WHERE name >= '4' AND name < '6'"), kIndexScan,
                     QStringLiteral("server")},
          std::tuple{QStringLiteral("SELECT count(pad) FROM v WHERE id < 5000"), bitmap,
                     QStringLiteral("server")},
          std::tuple{QStringLiteral("SELECT count(pad) FROM v"), QStringList(),
                     QStringLiteral("sequential")}}) {
        QVERIFY(server.restart().isEmpty());
        QCOMPARE(server.sqlLogged(QStringLiteral("SHOW wal_level")), QStringLiteral("minimal"));
        const ServerState before = serverState(server);
        QCOMPARE(before.extensions, QStringLiteral("plpgsql"));
        const Recorded recorded = record(server, query, settings, {}, false);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(recorded.visits()[QStringLiteral("source")].toString(), source);
        const ServerState after = serverState(server);
        qInfo("%s: WAL insert position %s before, %s after", qPrintable(query), qPrintable(before.walInsert),
              qPrintable(after.walInsert));
        QCOMPARE(after.extensions, before.extensions);
        QCOMPARE(after.relations, before.relations);
        QCOMPARE(after.walInsert, before.walInsert);
        // Said once, plainly: no snapshot of shared buffers, and why.
        qsizetype said = 0;
        for (const QJsonValue& note : recorded.recorded()[QStringLiteral("notes")].toArray())
            said += note.toString().contains(QLatin1String("pg_buffercache is not installed")) ? 1 : 0;
        QCOMPARE(said, 1);
        QCOMPARE(recorded.recorded()[QStringLiteral("cached_at_start")][QStringLiteral("source")].toString(),
                 QStringLiteral("trace"));
    }
    // The probe sees a write.
    const QString quiet = serverState(server).walInsert;
    server.sqlLogged(QStringLiteral("CREATE EXTENSION pg_buffercache"));
    QVERIFY(serverState(server).walInsert != quiet);
}

QTEST_GUILESS_MAIN(TestRecordVisits)
#include "tst_record_visits.moc"

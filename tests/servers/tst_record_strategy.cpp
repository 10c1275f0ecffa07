// SPDX-License-Identifier: GPL-3.0-or-later
// `lookahead record` of a sequential scan against each real server the tests find (pg_installations.h):
// a table one and a half times the size of shared buffers, 60 % of it cached, read by a Seq Scan
// through PostgreSQL's BULKREAD ring (docs/read-stream-model.md §14). The model's hits and misses are
// the server's EXPLAIN shared hit and read, its ring is the server's, and the blocks it leaves in
// shared buffers (--cache-after) are the very blocks pg_buffercache shows in the server's.
#include "cli_process.h"
#include "pg_server.h"
#include "recording.h"
#include "test_files.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace la;

namespace {

// 32 MB: 4,096 buffers, and a ring of 32 whichever version (256 kB: GetPinLimit is 4096 / 174 = 23).
constexpr int kSharedBuffers = 4096;
constexpr int kRing = 32;

// The Seq Scan node of a plan (EXPLAIN FORMAT JSON), wherever it sits.
QJsonObject seqScanNode(const QJsonObject& node) {
    if (node[QStringLiteral("Node Type")].toString() == QLatin1String("Seq Scan"))
        return node;
    for (const QJsonValue& child : node[QStringLiteral("Plans")].toArray())
        if (const QJsonObject found = seqScanNode(child.toObject()); !found.isEmpty())
            return found;
    return {};
}

} // namespace

class TestRecordStrategy : public QObject {
    Q_OBJECT
private slots:
    void sequentialScanThroughTheRing_data();
    void sequentialScanThroughTheRing();
};

void TestRecordStrategy::sequentialScanThroughTheRing_data() {
    test::addInstallationRows();
}

void TestRecordStrategy::sequentialScanThroughTheRing() {
    QFETCH(test::PgInstallation, installation);
    LA_SKIP_WITHOUT_SERVER(installation);
    LA_SKIP_WITHOUT_TRACER();
    test::PgServer server(installation);
    const QString started = server.start(false, QStringLiteral("shared_buffers = 32MB"));
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const int blocks = server.frozenTable(204000, false);
    QVERIFY2(blocks > kSharedBuffers, qPrintable(QString::number(blocks)));

    // An empty pool, then 30 of every 50 blocks cached (pg_prewarm reads without a strategy).
    QVERIFY(server.restart().isEmpty());
    server.sqlLogged(QStringLiteral("CREATE EXTENSION pg_prewarm; CREATE EXTENSION pg_buffercache"));
    const int cached =
        server
            .sqlLogged(
                QStringLiteral("SELECT sum(pg_prewarm('r', 'buffer', 'main', b, least(b + 29, %1 - 1))) "
                               "FROM generate_series(0, %1 - 1, 50) b")
                    .arg(blocks))
            .toInt();
    QVERIFY2(cached > blocks / 2 && cached < kSharedBuffers, qPrintable(QString::number(cached)));

    QTemporaryDir out;
    const QString after = out.filePath(QStringLiteral("after.txt"));
    const test::Recording result =
        test::recordQuery(server.conninfo(), QStringLiteral("SELECT * FROM r WHERE id <= 1000"), {},
                          {QStringLiteral("--cache-after"), after});
    const test::CliResult& recorded = result.run;
    QVERIFY2(recorded.exitCode == 0, qPrintable(recorded.err));
    qInfo("%s", qPrintable(recorded.out));

    const QJsonObject& doc = result.doc;
    const QJsonObject recording = doc[QStringLiteral("recorded")].toObject();
    QCOMPARE(recording[QStringLiteral("relation")].toObject()[QStringLiteral("scan")].toString(),
             QStringLiteral("Seq Scan"));
    const QJsonArray runs = doc[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    const QJsonObject model = runs[1].toObject();
    QCOMPARE(model[QStringLiteral("strategy")].toString(), QStringLiteral("BULKREAD"));
    QCOMPARE(model[QStringLiteral("ring_buffers")].toInt(), kRing);
    QCOMPARE(model[QStringLiteral("shared_buffers")].toInteger(), kSharedBuffers);
    QVERIFY2(recorded.out.contains(QStringLiteral("strategy BULKREAD (a ring of %1 buffers)").arg(kRing)),
             qPrintable(recorded.out));

    // The server's own figures for the scan, of each run it made (the untraced one, where there is
    // one, is what the replay compares with).
    const QJsonObject plans = recording[QStringLiteral("plan")].toObject();
    for (const QString& which : {QStringLiteral("traced"), QStringLiteral("untraced")}) {
        if (!plans.contains(which))
            continue;
        const QJsonObject scan =
            seqScanNode(plans[which].toArray().at(0).toObject()[QStringLiteral("Plan")].toObject());
        qInfo("%s run: shared hit %lld, read %lld; the model: hits %lld, misses %lld", qPrintable(which),
              scan[QStringLiteral("Shared Hit Blocks")].toInteger(),
              scan[QStringLiteral("Shared Read Blocks")].toInteger(),
              model[QStringLiteral("hits")].toInteger(), model[QStringLiteral("misses")].toInteger());
        QCOMPARE(scan[QStringLiteral("Shared Hit Blocks")].toInteger(), cached);
        QCOMPARE(scan[QStringLiteral("Shared Read Blocks")].toInteger(), blocks - cached);
    }
    QCOMPARE(model[QStringLiteral("hits")].toInteger(), cached);
    QCOMPARE(model[QStringLiteral("misses")].toInteger(), blocks - cached);

    // What stays: the cached blocks and the ring's last 32, in the model and in the server.
    const QString resident = server.sqlLogged(
        QStringLiteral("SELECT string_agg(relblocknumber::text, E'\\n' ORDER BY relblocknumber) "
                       "FROM pg_buffercache WHERE relfilenode = pg_relation_filenode('r') "
                       "AND relforknumber = 0"));
    QCOMPARE(model[QStringLiteral("resident_after")].toInteger(), cached + kRing);
    QCOMPARE(QString::fromUtf8(test::readFile(after)), resident + QLatin1Char('\n'));
    QVERIFY2(server.tracedProcesses().isEmpty(), qPrintable(server.tracedProcesses().join(QLatin1Char(','))));
}

QTEST_GUILESS_MAIN(TestRecordStrategy)
#include "tst_record_strategy.moc"

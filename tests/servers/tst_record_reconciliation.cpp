// SPDX-License-Identifier: GPL-3.0-or-later
// `lookahead record` against each real server the tests find (pg_installations.h; on 19 with
// io_method worker and io_uring): a sequential scan through BULKREAD's ring with part of its table
// cached, a bitmap heap scan and a cold backward index scan. Every recording reconciles the model's
// misses with PostgreSQL's shared read and the trace's reads (docs/trace-import.md §9): the figures
// agree, or the difference is named, before the verdict, on stdout and in the summary JSON. Its
// stdout and summary JSON carry PostgreSQL's own EXPLAIN figures beside the model's.
#include "pg_server.h"
#include "recording.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace la;

namespace {

struct Recorded {
    QJsonObject doc;
    QString out;
};

// Records `query` with `settings` (--set) and `options`; nothing where the recording fails.
Recorded record(const test::PgServer& server, const QString& query, const QStringList& settings = {},
                const QStringList& options = {}) {
    const test::Recording recording = test::recordQuery(server.conninfo(), query, settings, options);
    if (recording.run.exitCode != 0) {
        qWarning("%s", qPrintable(recording.run.err));
        return {};
    }
    return {recording.doc, recording.run.out};
}

// What every recording must show: PostgreSQL's EXPLAIN figures beside the model's, and a
// reconciliation that either agrees (the model's misses are the server's reads) or names the
// difference and its likely cause, printed before the verdict. Returns false where a check failed
// (a recording that failed has no runs): the case ends there.
bool checkReconciled(const Recorded& r, const QString& scan) {
    const QJsonArray runs = r.doc[QStringLiteral("runs")].toArray();
    [&] { QCOMPARE(runs.size(), qsizetype(2)); }();
    if (QTest::currentTestFailed())
        return false;
    const QJsonObject model = runs[1].toObject();
    const QJsonObject explain = runs[0].toObject()[QStringLiteral("postgresql_explain")].toObject();
    [&] {
        QCOMPARE(explain[QStringLiteral("node")].toString(), scan);
        QVERIFY(explain[QStringLiteral("shared_hit")].isDouble() ||
                explain[QStringLiteral("shared_read")].isDouble());
        QVERIFY2(r.out.contains(QStringLiteral("PostgreSQL's EXPLAIN (%1 on ").arg(scan)), qPrintable(r.out));
    }();
    // What the reader sees after the runs: the reconciliation, then the verdict.
    for (const QString& line : r.out.split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("figures reconcile")) ||
            line.startsWith(QLatin1String("FIGURES")) || line.startsWith(QLatin1String("observed ")))
            qInfo("%s", qPrintable(line));
    const QJsonObject rec = r.doc[QStringLiteral("reconciliation")].toObject();
    qInfo("%s: reconciliation %s", qPrintable(scan),
          QJsonDocument(rec).toJson(QJsonDocument::Compact).constData());
    [&] {
        QVERIFY(!rec.isEmpty());
        QCOMPARE(rec[QStringLiteral("model_misses")].toInteger(),
                 model[QStringLiteral("misses")].toInteger());
        const qint64 shared = explain[QStringLiteral("shared_read")].toInteger();
        QCOMPARE(rec[QStringLiteral("shared_read")].toInteger(), shared);
        QCOMPARE(rec[QStringLiteral("server_reads")].toInteger(),
                 shared - rec[QStringLiteral("index_pages")].toInteger());
        const qsizetype verdict = r.out.indexOf(QStringLiteral("\nobserved "));
        QVERIFY2(verdict > 0, qPrintable(r.out));
        const bool agrees =
            rec[QStringLiteral("comparable")].toBool() && rec[QStringLiteral("unexplained")].toInteger() == 0;
        if (agrees) {
            // Agreeing figures are equal figures: nothing is explained away between model and server.
            QCOMPARE(rec[QStringLiteral("server_reads")].toInteger(),
                     rec[QStringLiteral("model_misses")].toInteger());
            const qsizetype line = r.out.indexOf(QStringLiteral("figures reconcile: "));
            QVERIFY2(line >= 0 && line < verdict, qPrintable(r.out));
            return;
        }
        // A difference is named first, with a cause the summary JSON gives too.
        const qsizetype line = std::max(r.out.indexOf(QStringLiteral("FIGURES DISAGREE: ")),
                                        r.out.indexOf(QStringLiteral("FIGURES CANNOT AGREE: ")));
        QVERIFY2(line >= 0 && line < verdict, qPrintable(r.out));
        bool named = false;
        for (const QJsonValue& cause : rec[QStringLiteral("causes")].toArray())
            named = named || (!cause[QStringLiteral("explained")].toBool() &&
                              !cause[QStringLiteral("text")].toString().isEmpty());
        QVERIFY2(named, qPrintable(r.out));
    }();
    return !QTest::currentTestFailed();
}

} // namespace

class TestRecordReconciliation : public QObject {
    Q_OBJECT
private slots:
    void threeScans_data();
    void threeScans();
};

void TestRecordReconciliation::threeScans_data() {
    QTest::addColumn<test::PgInstallation>("installation");
    QTest::addColumn<QString>("ioMethod");
    for (const test::PgInstallation& installation : test::pgInstallations()) {
        if (installation.major < 18) {
            QTest::newRow(qPrintable(installation.name)) << installation << QString();
            continue;
        }
        for (const char* method : {"worker", "io_uring"})
            QTest::newRow(qPrintable(installation.name + QLatin1Char(' ') + QLatin1String(method)))
                << installation << QString::fromLatin1(method);
    }
}

void TestRecordReconciliation::threeScans() {
    QFETCH(test::PgInstallation, installation);
    QFETCH(QString, ioMethod);
    LA_SKIP_WITHOUT_SERVER(installation);
    LA_SKIP_WITHOUT_TRACER();
    test::PgServer server(installation);
    const QString settings =
        QStringLiteral("shared_buffers = 16MB\n") +
        (ioMethod.isEmpty() ? QString() : QStringLiteral("io_method = %1\n").arg(ioMethod));
    if (const QString started = server.start(false, settings); !started.isEmpty()) {
        // io_uring may be refused by the kernel (kernel.io_uring_disabled, a container's seccomp).
        if (ioMethod == QLatin1String("io_uring"))
            QSKIP(qPrintable(QStringLiteral("the server does not start with io_method = io_uring here: ") +
                             started));
        QFAIL(qPrintable(started));
    }
    // r: 3 times shared_buffers / 4 and more, frozen and on disk, with an index on id; t: the
    // hash-clustered table of the window tests, for the backward index scan.
    const int blocks = server.frozenTable(60000, true);
    QString error;
    server.hashClusteredTable(error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(blocks > 2048 / 4, qPrintable(QString::number(blocks)));

    // The seq scan through the ring, a third of the table cached by pg_prewarm (no strategy) in an
    // empty pool, snapshotted by pg_buffercache: the model's figures are the server's exactly.
    QVERIFY(server.restart().isEmpty());
    server.sqlLogged(QStringLiteral("CREATE EXTENSION IF NOT EXISTS pg_prewarm; "
                                    "CREATE EXTENSION IF NOT EXISTS pg_buffercache"));
    const int cached =
        server
            .sqlLogged(
                QStringLiteral("SELECT sum(pg_prewarm('r', 'buffer', 'main', b, least(b + 9, %1 - 1))) "
                               "FROM generate_series(0, %1 - 1, 30) b")
                    .arg(blocks))
            .toInt();
    QVERIFY(cached > 0);
    const Recorded seq = record(server, QStringLiteral("SELECT * FROM r WHERE pad = 'none'"));
    // The model's misses are the server's reads; where the trace saw fewer (io_uring's reads from the
    // page cache are no read calls), the difference is named.
    if (!checkReconciled(seq, QStringLiteral("Seq Scan")))
        return;
    QCOMPARE(seq.doc[QStringLiteral("runs")].toArray().at(1)[QStringLiteral("strategy")].toString(),
             QStringLiteral("BULKREAD"));
    const QJsonObject seqReconciled = seq.doc[QStringLiteral("reconciliation")].toObject();
    QCOMPARE(seqReconciled[QStringLiteral("model_misses")].toInteger(), blocks - cached);
    QCOMPARE(seqReconciled[QStringLiteral("server_reads")].toInteger(), blocks - cached);

    // A bitmap heap scan, cold: its shared read counts the Bitmap Index Scan's pages, told apart.
    const Recorded bitmap =
        record(server, QStringLiteral("SELECT * FROM r WHERE id BETWEEN 1000 AND 20000"),
               {QStringLiteral("enable_indexscan=off"), QStringLiteral("enable_seqscan=off")},
               {QStringLiteral("--cold")});
    if (!checkReconciled(bitmap, QStringLiteral("Bitmap Heap Scan")))
        return;
    // The index's pages the server read (none where --cold left the index cached) are told apart.
    QCOMPARE(bitmap.doc[QStringLiteral("reconciliation")][QStringLiteral("index_pages")].toInteger(),
             bitmap
                 .doc[QStringLiteral("runs")][0][QStringLiteral("postgresql_explain")]
                     [QStringLiteral("index_shared_read")]
                 .toInteger());

    // A cold backward index scan: its shared read counts the index's pages; the verdict names what
    // bound each side (the server's effective_io_concurrency, or no read stream before 17).
    const Recorded index =
        record(server, QStringLiteral("SELECT * FROM t WHERE a BETWEEN 100 AND 5000 ORDER BY a DESC"),
               {QStringLiteral("enable_bitmapscan=off"), QStringLiteral("enable_seqscan=off")},
               {QStringLiteral("--cold")});
    if (!checkReconciled(index, QStringLiteral("Index Scan")))
        return;
    QVERIFY2(index.out.contains(QStringLiteral("; limits: ")), qPrintable(index.out));
    if (installation.major < 17)
        QVERIFY2(
            index.out.contains(QStringLiteral("PostgreSQL %1 has no read stream").arg(installation.major)),
            qPrintable(index.out));
    else
        QVERIFY2(index.out.contains(QStringLiteral("the server's effective_io_concurrency = ")) &&
                     index.out.contains(QStringLiteral("the server's io_method = %1").arg(ioMethod)),
                 qPrintable(index.out));
    // The recording's notes are kept with it (the window lists them).
    QVERIFY(index.doc[QStringLiteral("recorded")][QStringLiteral("notes")].isArray());
    QVERIFY2(server.tracedProcesses().isEmpty(), qPrintable(server.tracedProcesses().join(QLatin1Char(','))));
}

QTEST_GUILESS_MAIN(TestRecordReconciliation)
#include "tst_record_reconciliation.moc"

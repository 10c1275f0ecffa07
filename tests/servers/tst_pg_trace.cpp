// SPDX-License-Identifier: GPL-3.0-or-later
// A real PostgreSQL 15 backward index scan, traced with strace and imported: the reads the trace
// shows are exactly the buffer misses PostgreSQL counts.
#include "observed/observed_summary.h"
#include "observed/trace_importer.h"
#include "pg_server.h"
#include "test_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

using namespace la;

namespace {

constexpr int kRows = 100'000;
const QString kQuery = QStringLiteral("SELECT * FROM t WHERE a <= 20000 ORDER BY a DESC");

// A psql session kept open, so strace can be attached to its backend between two statements.
class Session {
public:
    explicit Session(const test::PgServer& server) {
        m_psql.start(server.psqlProgram(), server.psqlArgs());
        m_psql.waitForStarted();
    }
    ~Session() {
        m_psql.closeWriteChannel();
        if (!m_psql.waitForFinished(10'000))
            m_psql.kill();
    }
    // Runs statements and returns their output (up to a marker echoed after them).
    QString run(const QString& statements) {
        const QString marker = QStringLiteral("--done-%1--").arg(++m_count);
        m_psql.write((statements + QStringLiteral("\n\\echo ") + marker + QLatin1Char('\n')).toUtf8());
        QString out;
        while (!out.contains(marker)) {
            if (!m_psql.waitForReadyRead(300'000))
                return QStringLiteral("ERROR: psql: ") + QString::fromUtf8(m_psql.readAllStandardError());
            out += QString::fromUtf8(m_psql.readAllStandardOutput());
        }
        return out.left(out.indexOf(marker)).trimmed();
    }

private:
    QProcess m_psql;
    int m_count = 0;
};

} // namespace

class TestPgTrace : public QObject {
    Q_OBJECT
private slots:
    void backwardIndexScan();
};

void TestPgTrace::backwardIndexScan() {
    if (const QString why = test::PgServer::unavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    const QString strace = QStandardPaths::findExecutable(QStringLiteral("strace"));
    if (strace.isEmpty())
        QSKIP("strace is not installed (packaging/install-deps.sh installs it)");

    test::PgServer server;
    QString error = server.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Rows stored in hash order, so an index scan by `a` jumps around the heap.
    server.sql(
        QStringLiteral("CREATE TABLE t(a int8, pad text);"
                       "INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, %1) g ORDER BY "
                       "hashint8(g);"
                       "CREATE INDEX t_a ON t(a);")
            .arg(kRows),
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    server.sql(QStringLiteral("VACUUM ANALYZE t"), error); // not in the transaction of the -c above
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString files = server.sql(
        QStringLiteral("SELECT pg_relation_filepath('t') || ' ' || pg_relation_filepath('t_a')"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList paths = files.split(QLatin1Char(' '));
    QCOMPARE(paths.size(), 2);
    const QString heapFile = paths[0], indexFile = paths[1];
    const QString heapBlocks = server.sql(
        QStringLiteral("SELECT count(DISTINCT (ctid::text::point)[0]) FROM t WHERE a <= 20000"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    // Empty shared buffers and OS cache: every page the query needs is read.
    error = server.restart();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    server.dropOsCache();

    Session session(server);
    const QString pid = session.run(QStringLiteral("SELECT pg_backend_pid();"));
    QVERIFY2(!pid.isEmpty() && !pid.startsWith(QLatin1String("ERROR")), qPrintable(pid));
    // Planning once first caches what planning reads (catalogs, the index's metapage), so the traced
    // statement's reads are its execution's.
    const QString warm = session.run(QStringLiteral("SET enable_seqscan = off; SET enable_bitmapscan = off; "
                                                    "EXPLAIN ") +
                                     kQuery + QLatin1Char(';'));
    QVERIFY2(warm.contains(QLatin1String("Index Scan Backward")), qPrintable(warm));

    const QString tracePath = server.socketDir() + QStringLiteral("/backend.strace");
    QProcess tracer;
    tracer.start(strace,
                 {QStringLiteral("-f"), QStringLiteral("-ttt"), QStringLiteral("-T"), QStringLiteral("-yy"),
                  QStringLiteral("-e"), QStringLiteral("trace=pread64,preadv,preadv2"), QStringLiteral("-o"),
                  tracePath, QStringLiteral("-p"), pid});
    tracer.setReadChannel(QProcess::StandardError); // where strace says it has attached
    QString attached;
    while (!attached.contains(QLatin1String("attached")) && tracer.waitForReadyRead(30'000))
        attached += QString::fromUtf8(tracer.readAllStandardError());
    QVERIFY2(attached.contains(QLatin1String("attached")), qPrintable(attached));
    const QString plan =
        session.run(QStringLiteral("EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) ") + kQuery + QLatin1Char(';'));
    tracer.terminate(); // strace detaches and finishes its file on SIGTERM
    QVERIFY(tracer.waitForFinished(30'000));
    // For the README's picture of a real server's trace: LOOKAHEAD_KEEP_TRACE=FILE keeps a copy.
    if (const QString keep = qEnvironmentVariable("LOOKAHEAD_KEEP_TRACE"); !keep.isEmpty())
        QFile::copy(tracePath, keep);
    QVERIFY2(plan.contains(QLatin1String("Index Scan Backward")), qPrintable(plan));
    // The scan node's "Buffers: shared hit=H read=R" (the first Buffers line, before Planning's).
    const QRegularExpressionMatch buffers =
        QRegularExpression(QStringLiteral("Buffers: shared[^\\n]*read=(\\d+)")).match(plan);
    QVERIFY2(buffers.hasMatch(), qPrintable(plan));
    const qint64 sharedRead = buffers.captured(1).toLongLong();

    const std::optional<ObservedTrace> heap =
        importTrace({tracePath.toStdString(), TraceFormat::Auto, {}, {}});
    QVERIFY(heap);
    QVERIFY2(heap->relation.ends_with(heapFile.toStdString()), heap->relation.c_str()); // the most read
    const std::optional<ObservedTrace> index =
        importTrace({tracePath.toStdString(), TraceFormat::Auto, indexFile.toStdString(), {}});
    QVERIFY(index);
    qInfo("heap %zu reads, index %zu reads, EXPLAIN shared read=%lld, distinct heap blocks %s",
          heap->reads.size(), index->reads.size(), sharedRead, qPrintable(heapBlocks));
    QCOMPARE(qint64(heap->reads.size() + index->reads.size()), sharedRead);
    const ObservedSummary summary = summarizeObserved(*heap);
    QCOMPARE(summary.run.ioSizeHist, (std::map<int, std::uint64_t>{{1, heap->reads.size()}})); // all 8 kB
    QCOMPARE(qint64(heap->reads.size()), heapBlocks.toLongLong());

    // The CLI on the same trace: the observed run beside its pg18 model.
    const QString json = server.socketDir() + QStringLiteral("/summary.json");
    QProcess cli;
    cli.start(QStringLiteral(LOOKAHEAD_BINARY),
              {QStringLiteral("--headless"), QStringLiteral("--import-trace"), tracePath,
               QStringLiteral("--compare-policy"), QStringLiteral("pg18"), QStringLiteral("--summary-json"),
               json});
    QVERIFY(cli.waitForFinished(120'000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonArray runs = test::readJson(json)[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject()[QStringLiteral("ios")].toInteger(), qint64(heap->reads.size()));
    QCOMPARE(runs[1].toObject()[QStringLiteral("blocks")].toInteger(), qint64(heap->reads.size()));

    // The model on the scan's own visits, with the cache state the trace implies: its misses are
    // the server's heap reads (EXPLAIN's shared read less the index's), and the observed run's waits
    // are the backend's reads, with their time. The visits first from ctid ...
    const QString visits = server.sql(
        QStringLiteral("SELECT (ctid::text::point)[0]::int FROM t WHERE a <= 20000 ORDER BY a DESC"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const qint64 rows = visits.count(QLatin1Char('\n')) + 1;
    QCOMPARE(rows, 20000);
    const QString visitsFile = server.socketDir() + QStringLiteral("/visits.txt");
    const QString planFile = server.socketDir() + QStringLiteral("/plan.txt");
    for (const auto& [path, text] : {std::pair{visitsFile, visits}, std::pair{planFile, plan}}) {
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
    }
    std::int64_t readNs = 0;
    for (const ObservedRead& read : heap->reads)
        readNs += read.durationNs;
    const qint64 heapReads = sharedRead - qint64(index->reads.size());
    // The btree's visits leave out a row's block when it is the previous row's (the heap page is
    // still pinned): a block list keeps every row.
    qint64 blockChanges = 0;
    QString previous;
    for (const QString& block : visits.split(QLatin1Char('\n'))) {
        blockChanges += block != previous ? 1 : 0;
        previous = block;
    }
    const auto modelOnVisits = [&](const QStringList& visitArgs, qint64 visitCount) {
        QProcess model;
        model.start(QStringLiteral(LOOKAHEAD_BINARY),
                    QStringList{QStringLiteral("--headless"), QStringLiteral("--import-trace"), tracePath,
                                QStringLiteral("--explain"), planFile, QStringLiteral("--compare-policy"),
                                QStringLiteral("pg18"), QStringLiteral("--summary-json"), json} +
                        visitArgs);
        QVERIFY(model.waitForFinished(120'000));
        const QString notes = QString::fromUtf8(model.readAllStandardError());
        QVERIFY2(model.exitCode() == 0, qPrintable(notes));
        QVERIFY2(!notes.contains(QLatin1String("EXPLAIN says")), qPrintable(notes)); // agrees with the server
        const QJsonArray both = test::readJson(json)[QStringLiteral("runs")].toArray();
        const QJsonObject observed = both[0].toObject(), modelled = both[1].toObject();
        QCOMPARE(modelled[QStringLiteral("blocks")].toInteger(), visitCount);
        QCOMPARE(modelled[QStringLiteral("hits")].toInteger() +
                     modelled[QStringLiteral("misses")].toInteger(),
                 visitCount);
        QCOMPARE(modelled[QStringLiteral("misses")].toInteger(), heapReads);
        QCOMPARE(modelled[QStringLiteral("trace_disagreements")].toInteger(), 0);
        QCOMPARE(observed[QStringLiteral("waits")].toInteger(), qint64(heap->reads.size()));
        QCOMPARE(observed[QStringLiteral("wait_ns")].toInteger(), readNs);
        // Real I/O reads the server's own heap file, not a copy, and so its time is compared.
        const QString verdict = QString::fromUtf8(model.readAllStandardOutput());
        if (visitArgs.contains(QStringLiteral("sync"))) {
            QVERIFY2(notes.contains(QStringLiteral("reads the server's own files: ") + server.dataDir()),
                     qPrintable(notes));
            QVERIFY2(verdict.contains(QLatin1String("; run time ")), qPrintable(verdict));
        } else {
            QVERIFY2(verdict.contains(QLatin1String("; time not compared: ")), qPrintable(verdict));
        }
    };
    modelOnVisits({QStringLiteral("--blocks"), visitsFile}, rows);
    modelOnVisits({QStringLiteral("--blocks"), visitsFile, QStringLiteral("--io"), QStringLiteral("sync")},
                  rows);
    modelOnVisits({QStringLiteral("--pg-datadir"), server.dataDir(), QStringLiteral("--pg-index"), indexFile,
                   QStringLiteral("--pg-heap"), heapFile, QStringLiteral("--pg-key"), QStringLiteral("int8"),
                   QStringLiteral("--pg-key-range"), QStringLiteral("1:20000"), QStringLiteral("--direction"),
                   QStringLiteral("backward")},
                  blockChanges);
}

QTEST_GUILESS_MAIN(TestPgTrace)
#include "tst_pg_trace.moc"

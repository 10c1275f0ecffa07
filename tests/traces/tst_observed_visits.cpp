// SPDX-License-Identifier: GPL-3.0-or-later
// The model of an imported trace on the scan's own visits, with the cache state the trace implies
// (docs/trace-import.md §6): the derivation, the pool's evictions it needs, a model run, and the
// command line on the real PostgreSQL 19 traces of the shared fixtures.

#include "buffer_pool.h"
#include "cli_process.h"
#include "observed/observed_events.h"
#include "observed/traced_cache.h"
#include "prewarm.h"
#include "run.h"
#include "test_files.h"
#include "vector_source.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace la;

namespace {

QString fixtures() {
    return QStringLiteral(LOOKAHEAD_SHARED_FIXTURES) + QStringLiteral("/pg19-io-workers");
}

TracedCache derive(const std::vector<std::uint32_t>& reads, const std::vector<std::uint32_t>& visits) {
    VectorSource source(visits);
    return deriveTracedCache(reads, source, nullptr);
}

// The Seq Scan's "Buffers: shared ... read=N" in a fixture's explain.txt.
qint64 sharedRead(const QString& explainFile) {
    QFile file(explainFile);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("Buffers: shared[^\\n]*read=(\\d+)"))
            .match(QString::fromUtf8(file.readAll()));
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

} // namespace

class TestObservedVisits : public QObject {
    Q_OBJECT
private slots:
    void firstVisitsOfReadBlocksMiss();
    void aBlockReadAgainMissesAtTheMatchingVisit();
    void disagreementsAreCountedWithExamples();
    void snapshotIsTheCacheAtTheStart();
    void observedReadsSitAtTheVisitsTheyServed();
    void evictionInBothPoolLayouts();
    void modelRunHasTheTracesMisses();
    void pg19TracesOnTheirVisits_data();
    void pg19TracesOnTheirVisits();
    void backendReadIsAWaitWorkersAreNot();
    void refusedCombinations();
};

void TestObservedVisits::firstVisitsOfReadBlocksMiss() {
    // An index scan's heap visits: block 3 visited three times, read once.
    const TracedCache cache = derive({3, 7}, {3, 1, 3, 7, 1, 3});
    QCOMPARE(cache.visits, 6u);
    QCOMPARE(cache.misses, 2u);
    QCOMPARE(cache.hits(), 4u);
    QCOMPARE(cache.rereads, 0u);
    QCOMPARE(cache.readBlocks, 2u);
    QCOMPARE(cache.cachedBlocks, 1u); // block 1: visited, never read
    QCOMPARE(cache.cachedBits.front(), std::uint64_t{1} << 1);
    QVERIFY(cache.disagreements().empty());
    QVERIFY2(QString::fromStdString(cache.describe()).contains(QLatin1String("6 visits give 2 misses")),
             cache.describe().c_str());
}

void TestObservedVisits::aBlockReadAgainMissesAtTheMatchingVisit() {
    // Block 5 read, evicted and read again after block 9's read: its second miss is the visit of 5
    // after 9's, not the one before it.
    std::vector<std::uint32_t> visits{5, 9};
    std::vector<std::uint32_t> reads{5, 9};
    for (std::uint32_t b = 100; b < 100 + 2 * kRereadTolerance; ++b) { // far apart in misses
        visits.push_back(b);
        reads.push_back(b);
    }
    visits.push_back(5); // a hit: the trace shows no read here yet
    for (std::uint32_t b = 5000; b < 5000 + 2 * kRereadTolerance; ++b) {
        visits.push_back(b);
        reads.push_back(b);
    }
    reads.push_back(5);
    visits.push_back(5); // the re-read
    const TracedCache cache = derive(reads, visits);
    QCOMPARE(cache.misses, std::uint64_t(reads.size()));
    QCOMPARE(cache.rereads, 1u);
    QCOMPARE(cache.rereadVisits, std::vector<std::uint64_t>{visits.size() - 1});
    QCOMPARE(cache.hits(), 1u);
    QCOMPARE(cache.unmatchedReads, 0u);
}

void TestObservedVisits::disagreementsAreCountedWithExamples() {
    // 42 is never visited; 2 is read twice but visited once.
    const TracedCache cache = derive({1, 42, 2, 2, 42}, {1, 2, 3});
    QCOMPARE(cache.unvisitedReads, 2u);
    QCOMPARE(cache.unvisitedExamples, std::vector<std::uint32_t>{42});
    QCOMPARE(cache.unmatchedReads, 1u);
    QCOMPARE(cache.unmatchedExamples, std::vector<std::uint32_t>{2});
    QCOMPARE(cache.misses, 2u);
    const std::vector<std::string> lines = cache.disagreements();
    QCOMPARE(lines.size(), std::size_t(2));
    QVERIFY2(lines[0].find("2 read(s) of blocks the scan never visits (e.g. 42)") != std::string::npos,
             lines[0].c_str());
}

// A snapshot of shared buffers (pg_buffercache's, as --prewarm list:FILE) is the cache at the start:
// the visited blocks it holds are resident, the rest are not, whatever the trace read; where the two
// disagree is counted.
void TestObservedVisits::snapshotIsTheCacheAtTheStart() {
    QTemporaryDir dir;
    const QString list = dir.filePath(QStringLiteral("cached.txt"));
    QFile file(list);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("1\n2\n5\n"); // 5: read by the server all the same
    file.close();
    const PrewarmSpec snapshot = PrewarmSpec::parse("list:" + list.toStdString());
    VectorSource visits({0, 1, 2, 3, 4, 5});
    const TracedCache cache = deriveTracedCache({0, 3, 5}, visits, nullptr, &snapshot);
    QVERIFY(cache.fromSnapshot);
    QCOMPARE(cache.cachedBlocks, 3u);         // 1, 2 and 5
    QCOMPARE(cache.snapshotButRead, 1u);      // 5
    QCOMPARE(cache.neitherCachedNorRead, 1u); // 4
    QCOMPARE(cache.disagreements().size(), std::size_t(2));
    QVERIFY(QString::fromStdString(cache.describe()).contains(QLatin1String("snapshot of shared buffers")));
    // Without the snapshot the trace decides: 1, 2 and 4 were cached.
    const TracedCache fromTrace = derive({0, 3, 5}, {0, 1, 2, 3, 4, 5});
    QCOMPARE(fromTrace.cachedBlocks, 3u);
    QCOMPARE(fromTrace.neitherCachedNorRead, 0u);
}

void TestObservedVisits::observedReadsSitAtTheVisitsTheyServed() {
    // Block 3 read alone, 7-8 in one read, 42 never visited: drawn at visits 1, 3, and after 3.
    ObservedTrace trace;
    trace.reads = {{0, 10, 3, 1, 0}, {5, 10, 7, 2, 0}, {9, 10, 42, 1, 0}};
    const TracedCache cache = derive(trace.impliedBlocks(), {1, 3, 5, 7, 8, 3});
    QCOMPARE(readVisitPositions(trace, cache), (std::vector<std::uint32_t>{1, 3, 3}));
    struct Positions final : EventSink {
        std::vector<std::uint32_t> started;
        void onEvents(std::span<const Event> batch) override {
            for (const Event& event : batch)
                if (event.kind == EventKind::ReadStarted)
                    started.push_back(event.position);
        }
    } sink;
    EventSink* sinks[] = {&sink};
    const std::vector<std::uint32_t> positions = readVisitPositions(trace, cache);
    emitObservedEvents(trace, sinks, &positions);
    QCOMPARE(sink.started, positions);
    sink.started.clear();
    emitObservedEvents(trace, sinks); // without visits: the blocks read before each read
    QCOMPARE(sink.started, (std::vector<std::uint32_t>{0, 1, 3}));
}

void TestObservedVisits::evictionInBothPoolLayouts() {
    for (const BufferPool::Layout layout : {BufferPool::Layout::Auto, BufferPool::Layout::Frames}) {
        BufferPool pool(64, 64, layout);
        QVERIFY(pool.prewarm(7));
        QCOMPARE(pool.resident(), 1u);
        QVERIFY(pool.evict(7));
        QCOMPARE(pool.resident(), 0u);
        QVERIFY(!pool.evict(7)); // not resident any more
        QCOMPARE(pool.pin(7).result, PinResult::Allocated);
        const BufferPool::Pinned again = pool.pin(8);
        QCOMPARE(again.result, PinResult::Allocated);
        // Being read (and, in frames, pinned): cannot go.
        QVERIFY(!pool.evict(8));
    }
    // A full pool of frames reuses an evicted frame and keeps its count.
    BufferPool full(4, 64, BufferPool::Layout::Frames);
    for (std::uint32_t b = 0; b < 4; ++b)
        QVERIFY(full.prewarm(b));
    QVERIFY(full.evict(2));
    QVERIFY(full.prewarm(10));
    QCOMPARE(full.resident(), 4u);
    QCOMPARE(full.pin(10).result, PinResult::Hit);
    QCOMPARE(full.pin(2).result, PinResult::Allocated);
}

void TestObservedVisits::modelRunHasTheTracesMisses() {
    // 2,000 visits of 500 blocks in a scattered order; the trace read 120 of them, 20 twice.
    std::vector<std::uint32_t> visits;
    for (std::uint32_t i = 0; i < 2000; ++i)
        visits.push_back((i * 7919U) % 500U);
    std::vector<std::uint32_t> reads;
    std::vector<bool> seen(500);
    std::uint64_t rereadsPlanned = 0;
    for (std::size_t i = 0; i < visits.size(); ++i) {
        const std::uint32_t b = visits[i];
        if (b % 4 != 0 || b >= 480)
            continue;
        if (!seen[b]) {
            seen[b] = true;
            reads.push_back(b);
        } else if (b % 24 == 0 && i > 1500 && rereadsPlanned < 20) {
            reads.push_back(b);
            ++rereadsPlanned;
        }
    }
    RunConfig config;
    config.blockSequence = std::make_shared<const std::vector<std::uint32_t>>(visits);
    config.tracedReads = std::make_shared<const std::vector<std::uint32_t>>(reads);
    config.policy = "pg18";
    std::vector<std::string> notices;
    RunCallbacks callbacks;
    callbacks.notice = [&](const std::string& text) { notices.push_back(text); };
    const RunSummary summary = runScan(config, "pg18", callbacks);
    QVERIFY2(summary.error.empty(), summary.error.c_str());
    QCOMPARE(summary.blocks, std::uint64_t(visits.size()));
    QCOMPARE(summary.hits + summary.misses, summary.blocks);
    QCOMPARE(summary.misses, std::uint64_t(reads.size()));
    QCOMPARE(summary.traceDisagreements, 0u);
    QVERIFY(!summary.cacheFromTrace.empty());
    QVERIFY(!notices.empty());
    QCOMPARE(QString::fromStdString(notices.front()), QString::fromStdString(summary.cacheFromTrace));
}

void TestObservedVisits::pg19TracesOnTheirVisits_data() {
    QTest::addColumn<QString>("scan");
    QTest::newRow("6% uncached") << QStringLiteral("seq-random-6pct-uncached");
    QTest::newRow("all uncached") << QStringLiteral("seq-all-uncached-scattered");
}

// The contract scripts rely on: runs[1] has blocks = visits, hits + misses = visits, misses = the
// visited blocks the trace read = PostgreSQL's own "shared read"; runs[0]'s waits are EXPLAIN's.
void TestObservedVisits::pg19TracesOnTheirVisits() {
    QFETCH(QString, scan);
    const QString dir = fixtures() + QLatin1Char('/') + scan;
    QTemporaryDir out;
    const QString json = out.filePath(QStringLiteral("s.json"));
    const test::CliResult run =
        test::runLookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"),
                            dir + QStringLiteral("/io-workers.strace"), QStringLiteral("--blocks"),
                            dir + QStringLiteral("/blocks.txt"), QStringLiteral("--explain"),
                            dir + QStringLiteral("/explain.txt"), QStringLiteral("--compare-policy"),
                            QStringLiteral("pg19"), QStringLiteral("--summary-json"), json},
                           120'000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonArray runs = test::readJson(json)[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    const QJsonObject observed = runs[0].toObject(), model = runs[1].toObject();
    const qint64 read = sharedRead(dir + QStringLiteral("/explain.txt"));
    QCOMPARE(model[QStringLiteral("blocks")].toInteger(), 16384);
    QCOMPARE(model[QStringLiteral("hits")].toInteger() + model[QStringLiteral("misses")].toInteger(), 16384);
    QCOMPARE(model[QStringLiteral("misses")].toInteger(), read);
    QCOMPARE(model[QStringLiteral("trace_disagreements")].toInteger(), 0);
    QVERIFY(model[QStringLiteral("cache_from_trace")].toString().contains(QLatin1String("16,384 visits")));
    const QJsonObject server = observed[QStringLiteral("postgresql_explain")].toObject();
    QCOMPARE(observed[QStringLiteral("waits")].toInteger(), server[QStringLiteral("io_waits")].toInteger());
    QVERIFY(observed[QStringLiteral("waits_scope")].toString().contains(QLatin1String("EXPLAIN")));
    QVERIFY2(!run.err.contains(QLatin1String("EXPLAIN says")), qPrintable(run.err)); // agrees with the server
    // The verdict compares like with like: waits both have, time not (an uncalibrated simulated device).
    const QString waits =
        QStringLiteral("; waits %1 against ").arg(server[QStringLiteral("io_waits")].toInteger());
    QVERIFY2(run.out.contains(waits), qPrintable(run.out));
    QVERIFY2(run.out.contains(QLatin1String("; time not compared: the model ran on the simulated device")),
             qPrintable(run.out));
}

void TestObservedVisits::backendReadIsAWaitWorkersAreNot() {
    const QString dir = fixtures() + QStringLiteral("/seq-random-6pct-uncached");
    QTemporaryDir out;
    const QString json = out.filePath(QStringLiteral("s.json"));
    const QStringList common{QStringLiteral("--headless"),
                             QStringLiteral("--import-trace"),
                             dir + QStringLiteral("/io-workers.strace"),
                             QStringLiteral("--dataset"),
                             QStringLiteral("seq"),
                             QStringLiteral("--summary-json"),
                             json};
    // The backend (14309) read one block itself, synchronously: one wait, as long as that read.
    test::CliResult run = test::runLookahead(
        common + QStringList{QStringLiteral("--trace-backend"), QStringLiteral("14309")}, 120'000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QJsonObject observed = test::readJson(json)[QStringLiteral("runs")].toArray()[0].toObject();
    QCOMPARE(observed[QStringLiteral("waits")].toInteger(), 1);
    QCOMPARE(observed[QStringLiteral("wait_ns")].toInteger(), 318'000); // strace -T's <0.000318>
    QVERIFY(
        observed[QStringLiteral("waits_scope")].toString().contains(QLatin1String("not in a syscall trace")));
    // Without knowing the backend, the workers' reads are not anyone's waits: unknown, not 0.
    run = test::runLookahead(common, 120'000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    observed = test::readJson(json)[QStringLiteral("runs")].toArray()[0].toObject();
    QVERIFY(observed[QStringLiteral("waits")].isNull());
    QVERIFY(observed[QStringLiteral("wait_ns")].isNull());
    // The pattern covers what the trace read, and says so: the relation's files are not here.
    QVERIFY2(run.err.contains(QLatin1String("as far as the trace read")), qPrintable(run.err));
}

void TestObservedVisits::refusedCombinations() {
    const QString trace = fixtures() + QStringLiteral("/seq-random-6pct-uncached/io-workers.strace");
    const std::pair<QStringList, QString> refused[] = {
        // Without visits the model replays the reads, each a miss: a cache state would be ignored.
        {{QStringLiteral("--prewarm"), QStringLiteral("all")},
         QStringLiteral("--prewarm with --import-trace needs the scan's visits")},
        {{QStringLiteral("--compare-direction")},
         QStringLiteral("--compare-direction cannot be used with --import-trace")}};
    for (const auto& [extra, message] : refused) {
        const test::CliResult run = test::runLookahead(
            QStringList{QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace} + extra,
            60'000);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }
}

QTEST_GUILESS_MAIN(TestObservedVisits)
#include "tst_observed_visits.moc"

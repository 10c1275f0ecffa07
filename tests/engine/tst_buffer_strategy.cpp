// SPDX-License-Identifier: GPL-3.0-or-later
// PostgreSQL's BULKREAD ring (docs/read-stream-model.md §14): its size by each version's rule, when a
// scan reads through it, the pins it lets the stream hold, and what stays in shared buffers after a
// scan, worked out by hand, buffer by buffer, for small pools; then the runs that use it (the pool
// of --shared-buffers exactly, --relation-blocks, --cache-after).
// The engine's headers before Qt's, whose `emit` macro would take the stream's emit().
#include "stream_harness.h"

#include "buffer_pool.h"
#include "buffer_strategy.h"
#include "cli_process.h"
#include "input_error.h"
#include "mechanics.h"
#include "run.h"
#include "run_options.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

#include <numeric>

using namespace la;

namespace {

StreamConfig server(std::uint64_t sharedBuffers, int eic = 16, int ioCombineLimit = 16,
                    int maxConnections = 100) {
    StreamConfig config;
    config.sharedBuffers = sharedBuffers;
    config.effectiveIoConcurrency = eic;
    config.ioCombineLimit = ioCombineLimit;
    config.maxConnections = maxConnections;
    return config;
}

// Pins `block` and unpins it at once: a scan that holds one buffer at a time, as PostgreSQL 15's.
PinResult touch(BufferPool& pool, std::uint32_t block) {
    const BufferPool::Pinned pinned = pool.pin(block);
    if (pinned.result == PinResult::Allocated)
        pool.markValid(pinned.frame);
    pool.unpin(pinned.frame);
    return pinned.result;
}

std::vector<std::uint32_t> blocks(std::initializer_list<std::uint32_t> list) {
    return list;
}

std::vector<std::uint32_t> range(std::uint32_t from, std::uint32_t to) {
    std::vector<std::uint32_t> out(to - from);
    std::iota(out.begin(), out.end(), from);
    return out;
}

// A sequential scan (READ_STREAM_SEQUENTIAL) of blocks 0 .. relation - 1 on the simulated device.
RunConfig seqScan(std::uint64_t relation, std::uint64_t sharedBuffers, const std::string& prewarm) {
    RunConfig config = defaultRunConfig();
    config.dataset.name = "seq";
    config.dataset.blocks = relation;
    config.stream.sequentialFlag = true;
    config.poolBlocks = sharedBuffers;
    config.prewarm = prewarm;
    return config;
}

RunSummary run(const RunConfig& config, const std::string& policy,
               std::vector<std::uint32_t>* after = nullptr) {
    RunCallbacks callbacks;
    if (after)
        callbacks.cacheAfter = [after](std::vector<std::uint32_t> blocks) { *after = std::move(blocks); };
    return runScan(config, policy, callbacks);
}

} // namespace

class TestBufferStrategy : public QObject {
    Q_OBJECT
private slots:
    void ringSizeByVersion();
    void strategyAsInitscanDecides();
    void ringCapsThePins();
    void pinsStayWithinTheBackendsShare();
    void reversedRangesThroughTheRing();
    void ringRecyclesItsBuffers();
    void pinnedRingBufferIsReplacedFromThePool();
    void hitThroughTheRingKeepsUsageAtOne();
    void sequentialScanKeepsTheCacheItPasses();
    void reviewCaseOnEachVersion();
    void poolIsTheServersExactly();
    void relationBlocksSizesABlockList();
    void cacheAfterIsTheNextRunsCacheState();
};

// GetAccessStrategy(BAS_BULKREAD): 256 kB up to 17; from 18 256 kB + io_combine_limit x eic blocks
// within max(256 kB, GetPinLimit() x 8 kB); always within shared_buffers / 8.
void TestBufferStrategy::ringSizeByVersion() {
    // 17 (and 15): 256 kB, 32 buffers, whatever eic.
    QCOMPARE(bulkReadRingBuffers(RingRule::Fixed256kB, server(16384, 16)), 32);
    QCOMPARE(bulkReadRingBuffers(RingRule::Fixed256kB, server(128)), 16); // 128 / 8
    // 18+ at the defaults: 256 + 16 x 16 x 8 = 2304 kB, capped at GetPinLimit 16384 / 174 = 94 buffers.
    QCOMPARE(bulkReadRingBuffers(RingRule::PlusIoConcurrency, server(16384)), 94);
    // 1 GB and max_connections 20: GetPinLimit 131072 / 94 = 1394, so the 2304 kB stand: 288.
    QCOMPARE(bulkReadRingBuffers(RingRule::PlusIoConcurrency, server(131072, 16, 16, 20)), 288);
    // eic 1 (PostgreSQL 15's default, as the model of 15 takes it): 256 + 128 kB = 48 buffers.
    QCOMPARE(bulkReadRingBuffers(RingRule::PlusIoConcurrency, server(16384, 1)), 48);
    // eic 0: the minimal ring.
    QCOMPARE(bulkReadRingBuffers(RingRule::PlusIoConcurrency, server(16384, 0)), 32);
    // 16 MB: GetPinLimit 2048 / 174 = 11, 88 kB, below the minimal 256 kB, which stands.
    QCOMPARE(bulkReadRingBuffers(RingRule::PlusIoConcurrency, server(2048)), 32);
    // A tiny pool: an eighth of it.
    QCOMPARE(bulkReadRingBuffers(RingRule::PlusIoConcurrency, server(64)), 8);
}

// heapam's initscan(): a relation larger than shared_buffers / 4, and only a sequential scan.
void TestBufferStrategy::strategyAsInitscanDecides() {
    StreamConfig config = server(2048);
    config.sequentialFlag = true;
    QCOMPARE(chooseStrategy(StrategyChoice::Auto, RingRule::PlusIoConcurrency, config, 513).ringBuffers, 32);
    QCOMPARE(
        std::string(chooseStrategy(StrategyChoice::Auto, RingRule::PlusIoConcurrency, config, 513).name()),
        std::string("BULKREAD"));
    QCOMPARE(chooseStrategy(StrategyChoice::Auto, RingRule::PlusIoConcurrency, config, 512).ringBuffers, 0);
    QCOMPARE(
        std::string(chooseStrategy(StrategyChoice::Auto, RingRule::PlusIoConcurrency, config, 512).name()),
        std::string("none"));
    QCOMPARE(chooseStrategy(StrategyChoice::None, RingRule::PlusIoConcurrency, config, 100000).ringBuffers,
             0);
    config.sequentialFlag = false; // an index scan, a bitmap heap scan: the main pool
    QCOMPARE(chooseStrategy(StrategyChoice::Auto, RingRule::PlusIoConcurrency, config, 100000).ringBuffers,
             0);
    QCOMPARE(chooseStrategy(StrategyChoice::BulkRead, RingRule::Fixed256kB, config, 1).ringBuffers, 32);

    RunConfig options = defaultRunConfig();
    QCOMPARE(options.strategy, StrategyChoice::Auto);
    setRunOption(options, *findRunOption("strategy"), "bulkread");
    QCOMPARE(options.strategy, StrategyChoice::BulkRead);
    QVERIFY_THROWS_EXCEPTION(InputError, setRunOption(options, *findRunOption("strategy"), "ring"));
}

// GetAccessStrategyPinLimit: BULKREAD lets the stream pin its whole ring.
void TestBufferStrategy::ringCapsThePins() {
    StreamConfig pg17 = server(16384, 16);
    pg17.ringBuffers = 32;
    QCOMPARE(computeLimits(pg17, kPg17Mechanics).maxPinned, 32); // max(4 x 16, 16) = 64, the ring 32
    pg17.effectiveIoConcurrency = 1;
    QCOMPARE(computeLimits(pg17, kPg17Mechanics).maxPinned, 16); // max(4, 16): below the ring
    StreamConfig pg19 = server(16384);
    pg19.ringBuffers = 94;
    QCOMPARE(computeLimits(pg19, kPg19Mechanics).maxPinned, 94);
    QCOMPARE(computeLimits(pg19, kPg19Mechanics).backendPinLimit, 94);
    StreamConfig small = server(2048);
    small.ringBuffers = 32;
    QCOMPARE(computeLimits(small, kPg19Mechanics).maxPinned, 11); // GetPinLimit, below the ring
}

// PG18+ checks the backend's pins before every read (§4.4): with 16 MB of shared buffers a backend
// may pin 2048 / 174 = 11 buffers, and the buffer manager counts what it holds as 8 at least, so no
// read is longer than 3 blocks (PostgreSQL 19 on such a pool: Prefetch max=3, reads of 1 to 3
// blocks, as tests/servers/tst_record_strategy.cpp records).
void TestBufferStrategy::pinsStayWithinTheBackendsShare() {
    for (const char* policy : {"pg18", "pg19"}) {
        test::StreamRun run;
        run.policy = policy;
        run.stream.sharedBuffers = 2048;
        run.run(test::firstBlocks(2000));
        QCOMPARE(computeLimits(run.stream, kPg19Mechanics).backendPinLimit, 11);
        QCOMPARE(run.summary.ioSizeHist.rbegin()->first, 3);
    }
    // A cold scan at the defaults reads through 94 buffers and leaves 94: the ring's oldest buffer
    // is never still pinned (without the check it would be, once per read, and the ring would take
    // a buffer from the pool each time).
    for (const char* policy : {"pg18", "pg19"})
        QCOMPARE(run(seqScan(24692, 16384, "none"), policy).residentAfter, std::uint64_t{94});
}

// CF 7035's backward sequential scan through the ring: the one pin check before every read (§4.4,
// §15.3) holds its reversed ranges within the backend's share as it holds forward reads.
void TestBufferStrategy::reversedRangesThroughTheRing() {
    // At the defaults the ring is 94 buffers, the backend's share, and a forward scan leaves exactly
    // those 94. Backward, each range's lowest block is allocated first and handed out last: the
    // consumer still holds it when look-ahead resumes, ranges of allocations after it, so the ring
    // comes round to its slot while it is pinned and takes a buffer from the pool instead. At most
    // one block per range escapes the ring that way (§15.4).
    RunConfig backward = seqScan(24692, 16384, "none");
    backward.dataset.direction = Direction::Backward;
    const RunSummary cold = run(backward, "cf7035");
    QCOMPARE(cold.strategy, std::string("BULKREAD"));
    QCOMPARE(cold.ringBuffers, 94);
    QCOMPARE(cold.maxPinned, 94);
    QCOMPARE(cold.misses, std::uint64_t{24692});
    QVERIFY(cold.reversedRanges > 1000);
    QCOMPARE(cold.ioSizeHist.rbegin()->first, 16);
    QVERIFY(cold.residentAfter > 94);
    QVERIFY(cold.residentAfter - 94 <= cold.reversedRanges);
    QCOMPARE(run(seqScan(24692, 16384, "none"), "cf7035").residentAfter, std::uint64_t{94});

    // On 16 MB the backend may pin 11 and the buffer manager counts 8 as held: a range's first read
    // gets 3 blocks, and the rest of the range is pinned past the budget, a block at a time once it
    // is spent (the progress guarantee). The 32-buffer ring holds those 12 pins with the consumer's.
    RunConfig small = seqScan(2000, 2048, "none");
    small.dataset.direction = Direction::Backward;
    const RunSummary tight = run(small, "cf7035");
    QCOMPARE(tight.ringBuffers, 32);
    QCOMPARE(tight.maxPinned, 11);
    QCOMPARE(tight.misses, std::uint64_t{2000});
    QVERIFY(tight.reversedRanges > 100);
    QCOMPARE(tight.ioSizeHist.rbegin()->first, 3);
    QVERIFY(tight.ioSizeHist.count(1) > 0);
    QCOMPARE(tight.residentAfter, std::uint64_t{32});
}

// A ring of 4 in a pool of 10 with 6 blocks cached: the first 4 misses take the pool's 4 free
// buffers into the ring, every later one recycles the oldest; the cache stays.
void TestBufferStrategy::ringRecyclesItsBuffers() {
    BufferPool pool(10, 100, BufferPool::Layout::Auto, 4);
    for (std::uint32_t b = 50; b < 56; ++b)
        QVERIFY(pool.prewarm(b));
    for (std::uint32_t b = 0; b < 20; ++b)
        QCOMPARE(touch(pool, b), PinResult::Allocated);
    QCOMPARE(pool.ringTakenFromPool(), std::uint64_t{4});
    QCOMPARE(pool.ringRecycled(), std::uint64_t{16});
    QCOMPARE(pool.validBlocks(), blocks({16, 17, 18, 19, 50, 51, 52, 53, 54, 55}));
    for (std::uint32_t b = 50; b < 56; ++b)
        QCOMPARE(touch(pool, b), PinResult::Hit);
    QCOMPARE(pool.validCount(), std::uint64_t{10});

    // Without a ring the same scan runs through the whole pool: the clock sweep evicts the cache.
    BufferPool main(10, 100, BufferPool::Layout::Frames);
    for (std::uint32_t b = 50; b < 56; ++b)
        QVERIFY(main.prewarm(b));
    for (std::uint32_t b = 0; b < 20; ++b)
        touch(main, b);
    QCOMPARE(main.validBlocks(), range(10, 20));
}

// GetBufferFromRing: a ring buffer still pinned cannot be reused; the ring takes a buffer from the
// main pool instead, puts it in that slot, and the pinned buffer leaves the ring (and stays).
void TestBufferStrategy::pinnedRingBufferIsReplacedFromThePool() {
    BufferPool pool(6, 100, BufferPool::Layout::Auto, 2);
    const BufferPool::Pinned first = pool.pin(0);  // slot 1 (the ring advances before it looks)
    const BufferPool::Pinned second = pool.pin(1); // slot 0
    pool.markValid(first.frame);
    pool.markValid(second.frame);
    const BufferPool::Pinned third = pool.pin(2); // slot 1 holds block 0, pinned: from the pool
    QVERIFY(third.frame != first.frame && third.frame != second.frame);
    QCOMPARE(pool.ringTakenFromPool(), std::uint64_t{3});
    pool.markValid(third.frame);
    for (const BufferPool::Pinned& pinned : {first, second, third})
        pool.unpin(pinned.frame);
    QCOMPARE(touch(pool, 3), PinResult::Allocated); // slot 0: block 1's buffer, free: recycled
    QCOMPARE(touch(pool, 4), PinResult::Allocated); // slot 1: block 2's buffer, recycled
    QCOMPARE(pool.ringRecycled(), std::uint64_t{2});
    // Block 0 left the ring when its slot got block 2's buffer: it stays; 1 and 2 were recycled.
    QCOMPARE(pool.validBlocks(), blocks({0, 3, 4}));
}

// PinBuffer() with a strategy raises a usage count to 1 at most: a block the scan hits is not
// kept over others the next time the clock sweep passes.
void TestBufferStrategy::hitThroughTheRingKeepsUsageAtOne() {
    // A full pool of 3 (usage 1 each), a ring of 1: the hit on 10 leaves it at 1, so the sweep
    // takes each down to 0 and then evicts 10, the first it meets again.
    BufferPool ring(3, 100, BufferPool::Layout::Auto, 1);
    for (const std::uint32_t b : {10U, 11U, 12U})
        QVERIFY(ring.prewarm(b));
    QCOMPARE(touch(ring, 10), PinResult::Hit);
    QCOMPARE(touch(ring, 50), PinResult::Allocated);
    QCOMPARE(ring.validBlocks(), blocks({11, 12, 50}));
    // Without a strategy the hit raises 10 to 2: it outlives 11.
    BufferPool main(3, 100, BufferPool::Layout::Frames);
    for (const std::uint32_t b : {10U, 11U, 12U})
        QVERIFY(main.prewarm(b));
    QCOMPARE(touch(main, 10), PinResult::Hit);
    QCOMPARE(touch(main, 50), PinResult::Allocated);
    QCOMPARE(main.validBlocks(), blocks({10, 12, 50}));
}

// A 3,000-block table in a 2,048-buffer pool, 60 % of it cached (30 of every 50 blocks): read
// through the ring (32 buffers), every cached block is a hit and stays, and the ring's last 32
// blocks join it. Through the whole pool, the early misses evict cached blocks before they are
// visited.
void TestBufferStrategy::sequentialScanKeepsTheCacheItPasses() {
    QTemporaryDir dir;
    QString cached;
    for (int b = 0; b < 3000; ++b)
        if (b % 50 < 30)
            cached += QString::number(b) + QLatin1Char('\n');
    const QString list = test::writeFile(dir.filePath(QStringLiteral("cached.txt")), cached.toUtf8());
    const RunConfig config = seqScan(3000, 2048, "list:" + list.toStdString());
    std::vector<std::uint32_t> after;
    const RunSummary ring = run(config, "pg19", &after);
    QCOMPARE(ring.strategy, std::string("BULKREAD"));
    QCOMPARE(ring.ringBuffers, 32);
    QCOMPARE(ring.sharedBuffers, std::uint64_t{2048});
    QCOMPARE(ring.hits, std::uint64_t{1800});
    QCOMPARE(ring.misses, std::uint64_t{1200});
    QCOMPARE(ring.residentAfter, std::uint64_t{1832});
    QCOMPARE(after.size(), std::size_t{1832});
    // The last 32 misses: the last 40 % of the table is misses 2990..2999, 2940..2949 and so on.
    std::vector<std::uint32_t> lastMisses;
    for (std::uint32_t b = 2999; lastMisses.size() < 32; --b)
        if (b % 50 >= 30)
            lastMisses.insert(lastMisses.begin(), b);
    std::vector<std::uint32_t> expected;
    for (std::uint32_t b = 0; b < 3000; ++b)
        if (b % 50 < 30 || std::binary_search(lastMisses.begin(), lastMisses.end(), b))
            expected.push_back(b);
    QCOMPARE(after, expected);

    RunConfig main = config;
    main.strategy = StrategyChoice::None;
    const RunSummary pool = run(main, "pg19");
    QCOMPARE(pool.strategy, std::string("none"));
    QCOMPARE(pool.ringBuffers, 0);
    QVERIFY2(pool.hits < 1800, qPrintable(QString::number(pool.hits)));
    QCOMPARE(pool.residentAfter, std::uint64_t{2048});
}

// The review's table: 24,692 blocks, 15,739 of them cached (a seeded 64 %), 128 MB of shared buffers.
void TestBufferStrategy::reviewCaseOnEachVersion() {
    const RunConfig config = seqScan(24692, 16384, "fraction:0.64:1");
    // 18 and 19: the ring is 94 buffers, as many as the backend may pin (GetPinLimit); the pins it
    // holds in all, the consumer's buffer among them, stay within it before every read (§4.4), so the
    // ring's oldest buffer is always free again: nothing escapes, the cache stays.
    for (const char* policy : {"pg18", "pg19"}) {
        const RunSummary s = run(config, policy);
        QCOMPARE(s.ringBuffers, 94);
        QCOMPARE(s.maxPinned, 94);
        QCOMPARE(s.hits, std::uint64_t{15739});
        QCOMPARE(s.misses, std::uint64_t{24692 - 15739});
        QCOMPARE(s.residentAfter, std::uint64_t{15739 + 94});
    }
    // 17: a ring of 32. Its stream may pin 16 (eic 1) or the whole ring (eic 16), but a sequential
    // stream gives no advice, so 17 looks ahead no further than io_combine_limit: 16 pins and the
    // consumer's buffer, and the ring's oldest buffer is free again when its turn comes.
    for (const int eic : {1, 16}) {
        RunConfig pg17 = config;
        pg17.stream.effectiveIoConcurrency = eic;
        const RunSummary s = run(pg17, "pg17");
        QCOMPARE(s.ringBuffers, 32);
        QCOMPARE(s.maxPinned, eic == 1 ? 16 : 32);
        QCOMPARE(s.distanceMax, 16);
        QCOMPARE(s.hits, std::uint64_t{15739});
        QCOMPARE(s.residentAfter, std::uint64_t{15739 + 32});
    }
    // The same scan through the whole pool keeps almost nothing of the cache.
    RunConfig main = config;
    main.strategy = StrategyChoice::None;
    QVERIFY(run(main, "pg19").hits < 2000);
}

// --shared-buffers is the server's pool: a cache state larger is refused, never cut short; the
// default pool grows to hold one, and says so.
void TestBufferStrategy::poolIsTheServersExactly() {
    RunConfig config = seqScan(1000, 500, "all");
    try {
        run(config, "pg19");
        QFAIL("a cache state of 1,000 blocks ran in 500 shared buffers");
    } catch (const InputError& error) {
        QVERIFY2(QByteArray(error.what()).contains("does not fit in 500 shared buffers"), error.what());
    }
    config.prewarm = "every:2"; // 500 blocks: just fits
    QCOMPARE(run(config, "pg19").sharedBuffers, std::uint64_t{500});

    config.poolBlocks = 0;
    config.dataset.blocks = 40000;
    config.prewarm = "all";
    std::vector<std::string> notices;
    RunCallbacks callbacks;
    callbacks.notice = [&notices](const std::string& text) { notices.push_back(text); };
    const RunSummary grown = runScan(config, "pg19", callbacks);
    QCOMPARE(grown.sharedBuffers, std::uint64_t{40001});
    QCOMPARE(grown.hits, std::uint64_t{40000});
    QCOMPARE(notices.size(), std::size_t{1});
    QVERIFY2(QByteArray::fromStdString(notices.front()).contains("grown from the default 16,384 to 40,001"),
             notices.front().c_str());
}

// A block list's relation is its highest block + 1, or --relation-blocks: that decides the strategy.
void TestBufferStrategy::relationBlocksSizesABlockList() {
    QTemporaryDir dir;
    QString list;
    for (int b = 0; b < 600; ++b)
        list += QString::number(b) + QLatin1Char('\n');
    RunConfig config = defaultRunConfig();
    config.blockList =
        test::writeFile(dir.filePath(QStringLiteral("blocks.txt")), list.toUtf8()).toStdString();
    config.stream.sequentialFlag = true;
    config.poolBlocks = 4096;
    QCOMPARE(run(config, "pg19").strategy, std::string("none")); // 600 <= 1024
    config.relationBlocks = 1025;
    const RunSummary large = run(config, "pg19");
    QCOMPARE(large.strategy, std::string("BULKREAD"));
    QCOMPARE(large.residentAfter, std::uint64_t{32});
    config.relationBlocks = 599;
    try {
        run(config, "pg19");
        QFAIL("a block list ran past --relation-blocks");
    } catch (const InputError& error) {
        QVERIFY2(QByteArray(error.what()).contains("reads block 599, past --relation-blocks 599"),
                 error.what());
    }
    RunConfig dataset = seqScan(1000, 2048, "none");
    dataset.relationBlocks = 5000;
    QVERIFY_THROWS_EXCEPTION(InputError, run(dataset, "pg19"));
}

// --cache-after writes the blocks in the model's shared buffers after the run; started from them,
// the next scan hits each one.
void TestBufferStrategy::cacheAfterIsTheNextRunsCacheState() {
    QTemporaryDir dir;
    const QString after = dir.filePath(QStringLiteral("after.txt"));
    const QString json = dir.filePath(QStringLiteral("summary.json"));
    const QStringList scan{QStringLiteral("--headless"), QStringLiteral("--dataset"),
                           QStringLiteral("seq"),        QStringLiteral("--pattern-blocks"),
                           QStringLiteral("1000"),       QStringLiteral("--stream-flags"),
                           QStringLiteral("sequential"), QStringLiteral("--shared-buffers"),
                           QStringLiteral("2048"),       QStringLiteral("--policy"),
                           QStringLiteral("pg19")};
    test::CliResult first = test::runLookahead(
        scan + QStringList{QStringLiteral("--prewarm"), QStringLiteral("every:2"),
                           QStringLiteral("--cache-after"), after, QStringLiteral("--summary-json"), json},
        60'000);
    QVERIFY2(first.exitCode == 0, qPrintable(first.err));
    QVERIFY2(
        first.out.contains(QLatin1String("strategy BULKREAD (a ring of 32 buffers); 532 of the relation's "
                                         "blocks resident after the run")),
        qPrintable(first.out));
    const QJsonObject summary = test::summaryRun(json);
    QCOMPARE(summary[QStringLiteral("strategy")].toString(), QStringLiteral("BULKREAD"));
    QCOMPARE(summary[QStringLiteral("ring_buffers")].toInt(), 32);
    QCOMPARE(summary[QStringLiteral("resident_after")].toInteger(), 532);
    QCOMPARE(summary[QStringLiteral("shared_buffers")].toInteger(), 2048);
    // The 500 even blocks and the ring's last 32 misses: the odd blocks 937 .. 999.
    QStringList expected;
    for (int b = 0; b < 1000; ++b)
        if (b % 2 == 0 || b >= 937)
            expected << QString::number(b);
    QCOMPARE(QString::fromUtf8(test::readFile(after)), expected.join(QLatin1Char('\n')) + QLatin1Char('\n'));

    const test::CliResult next = test::runLookahead(
        scan + QStringList{QStringLiteral("--prewarm"), QStringLiteral("list:") + after}, 60'000);
    QVERIFY2(next.exitCode == 0, qPrintable(next.err));
    QVERIFY2(next.out.contains(QLatin1String("hits 532  misses 468")), qPrintable(next.out));

    // The list it starts from is an input: --cache-after may not replace it.
    const test::CliResult same =
        test::runLookahead(scan + QStringList{QStringLiteral("--prewarm"), QStringLiteral("list:") + after,
                                              QStringLiteral("--cache-after"), after},
                           60'000);
    QCOMPARE(same.exitCode, 2);
    QVERIFY2(same.err.contains(QLatin1String("--cache-after")), qPrintable(same.err));
}

QTEST_GUILESS_MAIN(TestBufferStrategy)
#include "tst_buffer_strategy.moc"

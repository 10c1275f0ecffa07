// SPDX-License-Identifier: GPL-3.0-or-later
// Descending runs on the cf7035 mechanics (CF 7035 v2, docs/read-stream-model.md §15) and on the
// --backward-combining what-if: which runs become one read, the range read whole before its first
// buffer, no look-ahead while it is handed back, progress at max_ios and at an exhausted pin budget,
// forward runs as PostgreSQL 19 reads them, and the timing that follows.
#include "run.h"
#include "stream_harness.h"

#include <QTest>

#include <algorithm>
#include <map>

using namespace la;
using la::test::StreamRun;
using la::test::TraceRecorder;

namespace {

// Field by field: an event's padding byte is not part of the trace.
bool sameEvent(const Event& a, const Event& b) {
    return a.time_ns == b.time_ns && a.position == b.position && a.block == b.block && a.io_id == b.io_id &&
           a.kind == b.kind && a.nblocks == b.nblocks && a.flags == b.flags && a.in_flight == b.in_flight &&
           a.distance == b.distance && a.combine_distance == b.combine_distance && a.pinned == b.pinned;
}

// A run as test_aio's read_stream_for_blocks() opens one: READ_STREAM_FULL.
StreamRun patchRun(int eic = 16, int ioCombineLimit = 16) {
    StreamRun run;
    run.policy = "cf7035";
    run.stream.effectiveIoConcurrency = eic;
    run.stream.ioCombineLimit = ioCombineLimit;
    run.stream.fullFlag = true;
    return run;
}

// Index of each event of `kind` for `block` (the first one), for ordering checks.
std::map<std::uint32_t, std::size_t> firstIndex(const TraceRecorder& trace, EventKind kind) {
    std::map<std::uint32_t, std::size_t> at;
    for (std::size_t i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].kind == kind)
            at.emplace(trace.events[i].block, i);
    return at;
}

} // namespace

class TestBackwardCombining : public QObject {
    Q_OBJECT
private slots:
    void descendingRunsBecomeOneRead();
    void rangeReadWholeBeforeItsFirstBuffer();
    void noLookAheadWhileHandingBack();
    void rangeGoesPastMaxIos();
    void exhaustedPinBudgetStillProgresses();
    void otherPinsShortenTheFirstRead();
    void directionSetBySecondBlock();
    void forwardScansAsPg19_data();
    void forwardScansAsPg19();
    void waitPerRangeAtEic1();
    void whatIfHandsOutAsReadsComplete();
    void whatIfLeftToThePatch();
};

void TestBackwardCombining::descendingRunsBecomeOneRead() {
    StreamRun run = patchRun();
    run.run(test::lastBlocksFirst(4096));
    // From the first read on: io_combine_limit blocks, read upward, one range each.
    const std::vector<int> sizes = run.trace.readSizes();
    QCOMPARE(sizes.size(), std::size_t{256});
    QVERIFY(std::all_of(sizes.begin(), sizes.end(), [](int size) { return size == 16; }));
    std::uint32_t expected = 4096;
    for (const Event& e : run.trace.events) {
        if (e.kind != EventKind::ReadStarted)
            continue;
        expected -= 16;
        QCOMPARE(e.block, expected);
    }
    QCOMPARE(run.summary.reversedRanges, 256ull);
    QCOMPARE(run.trace.consumedBlocks(), test::lastBlocksFirst(4096));
    QCOMPARE(run.summary.misses, 4096ull);
}

void TestBackwardCombining::rangeReadWholeBeforeItsFirstBuffer() {
    // Every third block cached: each 16-block range is several reads and hits, started from its
    // lowest block, and its highest block is handed out only once every one of them is done.
    StreamRun run = patchRun();
    run.prewarm = "every:3";
    run.run(test::lastBlocksFirst(1024));
    QCOMPARE(run.trace.consumedBlocks(), test::lastBlocksFirst(1024));
    QCOMPARE(run.summary.reversedRanges, 64ull);
    const auto consumed = firstIndex(run.trace, EventKind::Consumed);
    std::map<std::uint32_t, std::vector<std::uint32_t>> readsOfRange; // range -> read starts, in order
    std::map<std::uint32_t, std::size_t> lastCompletion;              // range -> its last read done
    for (std::size_t i = 0; i < run.trace.events.size(); ++i) {
        const Event& e = run.trace.events[i];
        if (e.kind == EventKind::ReadStarted)
            readsOfRange[e.block / 16].push_back(e.block);
        if (e.kind == EventKind::ReadCompleted)
            lastCompletion[e.block / 16] = i;
    }
    QCOMPARE(readsOfRange.size(), std::size_t{64});
    for (const auto& [range, starts] : readsOfRange) {
        QVERIFY2(starts.size() > 1, qPrintable(QString::number(range)));
        QVERIFY(std::is_sorted(starts.begin(), starts.end())); // StartReadBuffers reads upward
        QVERIFY2(consumed.at(range * 16 + 15) > lastCompletion.at(range), qPrintable(QString::number(range)));
    }
}

void TestBackwardCombining::noLookAheadWhileHandingBack() {
    StreamRun run = patchRun();
    run.run(test::lastBlocksFirst(1024));
    // From a range's first buffer out to its last, the stream asks for no block and starts no read.
    bool inRange = false;
    std::size_t handedOutInRanges = 0;
    std::size_t requestsBetweenRanges = 0;
    for (const Event& e : run.trace.events) {
        if (e.kind == EventKind::Consumed) {
            inRange = e.block % 16 != 0; // block 16k is the range's last out
            handedOutInRanges += inRange ? 1 : 0;
        } else if (inRange) {
            QVERIFY2(e.kind != EventKind::Requested && e.kind != EventKind::ReadStarted,
                     qPrintable(QStringLiteral("event %1 at block %2").arg(int(e.kind)).arg(e.block)));
        } else if (e.kind == EventKind::Requested) {
            ++requestsBetweenRanges;
        }
    }
    // Every buffer but each range's last is handed out inside a range, and the stream looks ahead
    // between them: the silence above is the ranges', not a stream that never asks.
    QCOMPARE(handedOutInRanges, std::size_t{1024 - 1024 / 16});
    QVERIFY(requestsBetweenRanges > 0);
}

void TestBackwardCombining::rangeGoesPastMaxIos() {
    // One read in flight at most (eic 1), every other block cached: a 16-block range needs 8 reads,
    // so each next one waits for the one before it in look-ahead, not at the consumer.
    StreamRun run = patchRun(1);
    run.prewarm = "every:2";
    run.run(test::lastBlocksFirst(256));
    QCOMPARE(run.trace.consumedBlocks(), test::lastBlocksFirst(256));
    QCOMPARE(run.summary.ios, 128ull);
    std::size_t waitedAhead = 0;
    for (std::size_t i = 0; i + 1 < run.trace.events.size(); ++i) {
        QVERIFY(run.trace.events[i].in_flight <= 1);
        // A read completed in look-ahead is followed by the next call of the range, not a hand-out.
        if (run.trace.events[i].kind == EventKind::ReadCompleted &&
            run.trace.events[i + 1].kind != EventKind::Consumed &&
            run.trace.events[i + 1].kind != EventKind::DistanceChanged &&
            run.trace.events[i + 1].kind != EventKind::ReadCompleted)
            ++waitedAhead;
    }
    QCOMPARE(waitedAhead, std::size_t{16 * 7}); // all but the last read of each range
}

void TestBackwardCombining::exhaustedPinBudgetStillProgresses() {
    // 4096 buffers over max_connections 600: 6 pins a backend, fewer than the 8 the buffer manager
    // counts as held, so no read finds a pin to spare (the patch's pin-pressure test).
    StreamRun run = patchRun();
    run.stream.sharedBuffers = 4096;
    run.stream.maxConnections = 600;
    run.run(test::lastBlocksFirst(600));
    QCOMPARE(run.trace.consumedBlocks(), test::lastBlocksFirst(600));
    // Ranges of max_pinned (6) blocks, each read one block at a time, upward.
    QCOMPARE(computeLimits(run.stream, kCf7035Mechanics).maxPinned, 6);
    QCOMPARE(run.summary.reversedRanges, 100ull);
    QCOMPARE(run.summary.ioSizeHist, (std::map<int, std::uint64_t>{{1, 600}}));
    std::vector<std::uint32_t> starts;
    for (const Event& e : run.trace.events)
        if (e.kind == EventKind::ReadStarted)
            starts.push_back(e.block);
    QCOMPARE(starts.size(), std::size_t{600});
    QCOMPARE((std::vector<std::uint32_t>(starts.begin(), starts.begin() + 7)),
             (std::vector<std::uint32_t>{594, 595, 596, 597, 598, 599, 588}));
}

void TestBackwardCombining::otherPinsShortenTheFirstRead() {
    // 94 pins a backend, 80 of them held elsewhere: a range's first read gets the 14 left, and each
    // later block of the range is pinned one at a time past the limit.
    StreamRun run = patchRun();
    run.stream.otherPins = 80;
    run.run(test::lastBlocksFirst(64));
    QCOMPARE(run.trace.consumedBlocks(), test::lastBlocksFirst(64));
    const std::vector<int> sizes = run.trace.readSizes();
    QCOMPARE((std::vector<int>(sizes.begin(), sizes.begin() + 3)), (std::vector<int>{14, 1, 1}));
    QCOMPARE(run.summary.reversedRanges, 4ull);
    // Without the other pins the same stream reads whole ranges.
    StreamRun free = patchRun();
    free.run(test::lastBlocksFirst(64));
    QCOMPARE(free.trace.readSizes(), (std::vector<int>{16, 16, 16, 16}));
}

void TestBackwardCombining::directionSetBySecondBlock() {
    // A lone pending block takes the next block above or below; a run keeps its direction, and a
    // block that would reverse it starts a new read.
    StreamRun run = patchRun();
    run.run({5, 4, 3, 10, 11, 12, 20, 19, 40, 41, 42, 39, 38, 50});
    QCOMPARE(run.trace.consumedBlocks(),
             (std::vector<std::uint32_t>{5, 4, 3, 10, 11, 12, 20, 19, 40, 41, 42, 39, 38, 50}));
    std::vector<std::pair<std::uint32_t, int>> reads;
    for (const Event& e : run.trace.events)
        if (e.kind == EventKind::ReadStarted)
            reads.emplace_back(e.block, e.nblocks);
    QCOMPARE(reads, (std::vector<std::pair<std::uint32_t, int>>{
                        {3, 3}, {10, 3}, {19, 2}, {40, 3}, {38, 2}, {50, 1}}));
    QCOMPARE(run.summary.reversedRanges, 3ull);
}

void TestBackwardCombining::forwardScansAsPg19_data() {
    QTest::addColumn<QString>("prewarm");
    QTest::addColumn<bool>("full");
    QTest::newRow("cold") << "none" << false;
    QTest::newRow("every 16th uncached") << "except-every:16" << false;
    QTest::newRow("alternating, full") << "every:2" << true;
}

void TestBackwardCombining::forwardScansAsPg19() {
    // The patch changes nothing for ascending blocks: the same events as PostgreSQL 19, one by one.
    QFETCH(QString, prewarm);
    QFETCH(bool, full);
    std::vector<std::uint32_t> blocks = test::lastBlocksFirst(2048);
    std::reverse(blocks.begin(), blocks.end());
    std::vector<Event> traces[2];
    for (int i = 0; i < 2; ++i) {
        StreamRun run;
        run.policy = i == 0 ? "pg19" : "cf7035";
        run.stream.fullFlag = full;
        run.prewarm = prewarm.toStdString();
        run.run(blocks);
        traces[i] = run.trace.events;
    }
    QCOMPARE(traces[1].size(), traces[0].size());
    for (std::size_t i = 0; i < traces[0].size(); ++i)
        QVERIFY2(sameEvent(traces[0][i], traces[1][i]), qPrintable(QStringLiteral("event %1").arg(i)));
}

void TestBackwardCombining::waitPerRangeAtEic1() {
    // One read in flight, and 16 blocks' consumption outlasting a 16-block read: a forward read
    // overlaps the consumption of the one before it, a reversed range cannot (look-ahead waits until
    // its last buffer is out), so every range is a wait.
    StreamRun forward = patchRun(1);
    std::vector<std::uint32_t> ascending = test::lastBlocksFirst(4096);
    std::reverse(ascending.begin(), ascending.end());
    forward.consumerNs = 30'000;
    forward.run(ascending);
    StreamRun backward = patchRun(1);
    backward.consumerNs = 30'000;
    backward.run(test::lastBlocksFirst(4096));
    QCOMPARE(backward.summary.ios, forward.summary.ios);
    QCOMPARE(backward.summary.waits, 256ull);
    QVERIFY2(forward.summary.waits < 8, qPrintable(QString::number(forward.summary.waits)));
    QVERIFY(backward.summary.runtimeNs > forward.summary.runtimeNs);
}

void TestBackwardCombining::whatIfHandsOutAsReadsComplete() {
    // The what-if on PostgreSQL 19: the same descending runs read as one read each, but look-ahead
    // goes on while a read's buffers are handed out, so the next read overlaps them.
    StreamRun whatIf;
    whatIf.policy = "pg19";
    whatIf.stream.effectiveIoConcurrency = 1;
    whatIf.stream.fullFlag = true;
    whatIf.stream.backwardCombining = true;
    whatIf.consumerNs = 30'000;
    whatIf.run(test::lastBlocksFirst(4096));
    QCOMPARE(whatIf.trace.consumedBlocks(), test::lastBlocksFirst(4096));
    QCOMPARE(whatIf.summary.reversedRanges, 0ull);
    QCOMPARE(whatIf.trace.readSizes(), std::vector<int>(256, 16));
    StreamRun patch = patchRun(1);
    patch.consumerNs = 30'000;
    patch.run(test::lastBlocksFirst(4096));
    QVERIFY2(whatIf.summary.waits < patch.summary.waits / 8,
             qPrintable(QString::number(whatIf.summary.waits)));
}

void TestBackwardCombining::whatIfLeftToThePatch() {
    // A what-if run beside the patch (A pg19 with the flag, B cf7035) gives B the flag too: it changes
    // nothing there, and the run says so.
    RunConfig config;
    config.dataset.name = "seq";
    config.dataset.blocks = 256;
    config.dataset.direction = Direction::Backward;
    std::vector<std::string> notices;
    RunCallbacks callbacks;
    callbacks.notice = [&notices](const std::string& notice) { notices.push_back(notice); };
    const RunSummary plain = runScan(config, "cf7035", callbacks);
    QVERIFY(notices.empty());
    config.stream.backwardCombining = true;
    const RunSummary flagged = runScan(config, "cf7035", callbacks);
    QCOMPARE(notices.size(), std::size_t{1});
    QVERIFY2(QString::fromStdString(notices[0]).contains(QLatin1String("--backward-combining")) &&
                 QString::fromStdString(notices[0]).contains(QLatin1String("changes nothing")),
             notices[0].c_str());
    QCOMPARE(flagged.ioSizeHist, plain.ioSizeHist);
    QCOMPARE(flagged.waits, plain.waits);
    QCOMPARE(flagged.runtimeNs, plain.runtimeNs);
    QCOMPARE(flagged.reversedRanges, plain.reversedRanges);
}

QTEST_GUILESS_MAIN(TestBackwardCombining)
#include "tst_backward_combining.moc"

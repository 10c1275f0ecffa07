// SPDX-License-Identifier: GPL-3.0-or-later
// Combining, backward scans, the unget slot, the fast path, PG17's hit-terminated reads against
// PG18's forwarded buffers, pause/resume, and collapse detection.
#include "block_size.h"
#include "splitmix64.h"
#include "stream_harness.h"

#include <QTest>

// After the engine's headers: Qt's `emit` macro would rename ReadStream::emit.
#include "data_rows.h"

#include <algorithm>
#include <map>
#include <set>

using namespace la;
using la::test::StreamRun;
using la::test::TraceRecorder;

namespace {

std::size_t countKind(const TraceRecorder& trace, EventKind kind) {
    return static_cast<std::size_t>(std::count_if(trace.events.begin(), trace.events.end(),
                                                  [kind](const Event& e) { return e.kind == kind; }));
}

// Field by field: an event's padding byte is not part of the trace.
bool sameEvent(const Event& a, const Event& b) {
    return a.time_ns == b.time_ns && a.position == b.position && a.block == b.block && a.io_id == b.io_id &&
           a.kind == b.kind && a.nblocks == b.nblocks && a.flags == b.flags && a.in_flight == b.in_flight &&
           a.distance == b.distance && a.combine_distance == b.combine_distance && a.pinned == b.pinned;
}

std::vector<Event> traceWithLayout(const std::vector<std::uint32_t>& blocks, std::uint64_t relation,
                                   const std::string& prewarm, const std::string& policyName,
                                   BufferPool::Layout layout) {
    VectorSource source(blocks, relation);
    auto policy = makePolicy(policyName);
    BufferPool pool(relation + 1, relation, layout);
    PrewarmSpec::parse(prewarm).apply(pool, relation);
    SimDevice io(SimDeviceConfig{});
    Tracer tracer;
    TraceRecorder trace;
    tracer.addSink(&trace);
    ReadStream stream(StreamConfig{}, *policy, mechanicsFor(policyName, ""), pool, io, source, tracer);
    consumeStream(stream, 3'000, nullptr, [](const ReadStream&, std::uint64_t) {});
    tracer.flush();
    return trace.events;
}

} // namespace

class TestStreamMechanics : public QObject {
    Q_OBJECT
private slots:
    void forwardCombinesToLimit_data();
    void forwardCombinesToLimit();
    void backwardIsOneBlockReads_data();
    void backwardIsOneBlockReads();
    void backwardCombining();
    void ungetKeepsEveryBlock();
    void fastPathForCachedData();
    void perBufferDataDisablesFastPath();
    void pg17KeepsHitInRead();
    void pg18ForwardsHit();
    void readStopsAtBlockInFlight_data();
    void readStopsAtBlockInFlight();
    void pauseResume();
    void collapseDetection_data();
    void collapseDetection();
    void compactPoolMatchesFrames();
    void evictingPoolMatchesClockSweep();
    void compactPoolStreamMatchesFrames_data();
    void compactPoolStreamMatchesFrames();
};

void TestStreamMechanics::forwardCombinesToLimit_data() {
    QTest::addColumn<int>("limit");
    for (const int limit : {8, 16, 32})
        QTest::addRow("%d", limit) << limit;
}

void TestStreamMechanics::forwardCombinesToLimit() {
    QFETCH(int, limit);
    StreamRun run;
    run.stream.ioCombineLimit = limit;
    run.run(test::firstBlocks(4096));
    const auto sizes = run.trace.readSizes();
    QCOMPARE(*std::max_element(sizes.begin(), sizes.end()), limit);
    const auto full = std::count(sizes.begin(), sizes.end(), limit);
    QVERIFY(full >= static_cast<long>(sizes.size()) - 8); // all but the ramp-up
    QCOMPARE(run.trace.consumedBlocks(), test::firstBlocks(4096));
}

void TestStreamMechanics::backwardIsOneBlockReads_data() {
    test::addNameRows("policy", {"pg17", "pg18", "pg19", "adaptive", "fixed:64"});
}

void TestStreamMechanics::backwardIsOneBlockReads() {
    QFETCH(QString, policy);
    StreamRun run;
    run.policy = policy.toStdString();
    run.run(test::lastBlocksFirst(2048));
    QCOMPARE(run.summary.ios, 2048ull);
    QCOMPARE(run.summary.ioSizeHist.size(), std::size_t{1});
    QCOMPARE(run.summary.ioSizeHist.at(1), 2048ull);
}

void TestStreamMechanics::backwardCombining() {
    StreamRun forward;
    forward.run(test::firstBlocks(4096));
    StreamRun backward;
    backward.stream.backwardCombining = true;
    backward.run(test::lastBlocksFirst(4096));
    // Descending runs become ascending reads of up to io_combine_limit...
    const auto sizes = backward.trace.readSizes();
    QCOMPARE(*std::max_element(sizes.begin(), sizes.end()), 16);
    QVERIFY(backward.summary.ios <= forward.summary.ios + 4);
    // ...handed out in the order the callback asked for them.
    QCOMPARE(backward.trace.consumedBlocks(), test::lastBlocksFirst(4096));
    QCOMPARE(backward.summary.misses, 4096ull);
}

void TestStreamMechanics::ungetKeepsEveryBlock() {
    // One read in flight at a time (eic 1): the look-ahead loop must put a block back when it
    // cannot start the read before it, and hand it out later in order.
    StreamRun run;
    run.stream.effectiveIoConcurrency = 1;
    std::vector<std::uint32_t> blocks;
    for (std::uint32_t i = 0; i < 1000; ++i)
        blocks.push_back((i * 7919) % 4000);
    run.run(blocks);
    QVERIFY(countKind(run.trace, EventKind::Unget) > 100);
    QCOMPARE(countKind(run.trace, EventKind::Requested),
             blocks.size()); // an ungot block is not asked for twice
    QCOMPARE(run.trace.consumedBlocks(), blocks);
    for (const Event& e : run.trace.events)
        QVERIFY(e.in_flight <= 1);
}

void TestStreamMechanics::fastPathForCachedData() {
    const std::vector<std::uint32_t> blocks = test::firstBlocks(1000);
    VectorSource source(blocks);
    auto policy = makePolicy("pg18");
    BufferPool pool(2000, 1000);
    PrewarmSpec::parse("except-every:500").apply(pool, 1000); // misses at 0 and 500 only
    SimDevice io(SimDeviceConfig{});
    Tracer tracer;
    TraceRecorder trace;
    tracer.addSink(&trace);
    ReadStream stream(StreamConfig{}, *policy, kPg18Mechanics, pool, io, source, tracer);
    std::uint32_t block = 0;
    int fastSteps = 0;
    for (std::uint32_t i = 0; i < 1000; ++i) {
        QVERIFY(stream.nextBuffer(block));
        QCOMPARE(block, i);
        if (stream.inFastPath()) {
            ++fastSteps;
            QCOMPARE(stream.distances().readahead, 1);
            QCOMPARE(stream.pinned(), 1);
        }
    }
    QVERIFY(!stream.nextBuffer(block));
    tracer.flush();
    QVERIFY(fastSteps > 990);
    QCOMPARE(countKind(trace, EventKind::ReadStarted), std::size_t{2}); // the two misses leave it briefly
}

void TestStreamMechanics::perBufferDataDisablesFastPath() {
    // The same all-cached scan with and without per-buffer data: which steps ran in the fast path.
    auto fastSteps = [](bool perBufferData) {
        StreamRun run;
        run.stream.perBufferData = perBufferData;
        run.prewarm = "all";
        std::vector<bool> fast;
        run.afterEach = [&fast](const ReadStream& stream) { fast.push_back(stream.inFastPath()); };
        run.run(test::firstBlocks(100));
        return std::pair{fast, run.summary.hits};
    };
    const auto [control, controlHits] = fastSteps(false);
    QVERIFY(std::count(control.begin(), control.end(), true) > 90); // the fast path is there to be taken
    const auto [fast, hits] = fastSteps(true);
    QCOMPARE(fast.size(), std::size_t{100});
    for (std::size_t step = 0; step < fast.size(); ++step)
        QVERIFY2(!fast[step], qPrintable(QStringLiteral("fast path taken at step %1").arg(step)));
    // Without the fast path every cached block goes through the queue: one hit call each.
    QCOMPARE(hits, 100ull);
}

void TestStreamMechanics::pg17KeepsHitInRead() {
    // Blocks 0..63 all missing except every 4th: PG17 ends each read at the hit and keeps it in.
    StreamRun run;
    run.policy = "pg17";
    run.stream.effectiveIoConcurrency = 16;
    run.stream.sequentialFlag = true;
    run.stream.fullFlag = true; // start at 16, so reads span several blocks at once
    run.prewarm = "every:4";
    run.run(test::firstBlocks(64));
    bool sawHitInsideRead = false;
    for (std::size_t i = 1; i < run.trace.events.size(); ++i) {
        const Event& e = run.trace.events[i];
        if (e.kind == EventKind::Hit && run.trace.events[i - 1].kind == EventKind::Miss) {
            sawHitInsideRead = true;
            // ...without the hit decrement: the next event is the read starting, not a distance change.
            QCOMPARE(run.trace.events[i + 1].kind, EventKind::ReadStarted);
        }
    }
    QVERIFY(sawHitInsideRead);
    QCOMPARE(run.trace.consumedBlocks(), test::firstBlocks(64));
}

void TestStreamMechanics::pg18ForwardsHit() {
    StreamRun run;
    run.policy = "pg18";
    run.stream.fullFlag = true;
    run.prewarm = "every:4";
    run.run(test::firstBlocks(64));
    // PG18 splits before the hit; the hit becomes its own no-I/O call, which decrements.
    int decrementsAfterHit = 0;
    for (std::size_t i = 0; i + 1 < run.trace.events.size(); ++i) {
        const Event& e = run.trace.events[i];
        if (e.kind == EventKind::Miss)
            QVERIFY(e.block % 4 != 0);
        if (e.kind == EventKind::Hit && run.trace.events[i + 1].kind == EventKind::DistanceChanged &&
            run.trace.events[i + 1].distance + 1 == e.distance)
            ++decrementsAfterHit;
    }
    QVERIFY(decrementsAfterHit > 0);
    QCOMPARE(run.summary.hits, 16ull);
    QCOMPARE(run.trace.consumedBlocks(), test::firstBlocks(64));
}

void TestStreamMechanics::readStopsAtBlockInFlight_data() {
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("mechanics");
    for (const char* policy : {"pg17", "pg18", "pg19", "fixed:4", "adaptive"})
        for (const char* mechanics : {"pg17", "pg18", "pg19"})
            QTest::newRow(
                qPrintable(QStringLiteral("%1 on %2").arg(QLatin1String(policy), QLatin1String(mechanics))))
                << QString::fromLatin1(policy) << QString::fromLatin1(mechanics);
}

// A read ends before a block that an earlier read of the stream brought in or is still reading, as
// StartReadBuffers does: PG18's AsyncReadBuffers() ends its I/O at a buffer whose I/O is in progress
// (ReadBuffersCanStartIO), PG17's WaitReadBuffers() ends its preadv at a buffer already valid.
// Block 13 is read, then 12-19 are asked for while 13 may still be in flight.
void TestStreamMechanics::readStopsAtBlockInFlight() {
    QFETCH(QString, policy);
    QFETCH(QString, mechanics);
    StreamRun run;
    run.policy = policy.toStdString();
    run.mechanics = mechanics.toStdString();
    run.stream.effectiveIoConcurrency = 2;
    run.stream.ioCombineLimit = 4;
    std::vector<std::uint32_t> blocks = test::firstBlocks(8);
    blocks.push_back(13);
    for (std::uint32_t block = 12; block < 20; ++block)
        blocks.push_back(block);
    run.run(blocks);
    QCOMPARE(run.summary.blocks, std::uint64_t{blocks.size()});
    // Each of the 16 distinct blocks (0-7, 12-19) comes from the device once.
    QCOMPARE(run.summary.bytesRead, std::uint64_t{16} * kBlockSize);
    // Only a read's first block may be one an earlier read covered (it then joins or waits for it).
    std::map<std::uint32_t, std::uint32_t> readOf;
    std::set<std::uint32_t> started;
    for (const Event& e : run.trace.events) {
        if (e.kind != EventKind::Miss)
            continue;
        const bool first = started.insert(e.io_id).second;
        const auto [it, fresh] = readOf.emplace(e.block, e.io_id);
        QVERIFY2(first || fresh, qPrintable(QStringLiteral("read %1 spans block %2 of read %3")
                                                .arg(e.io_id)
                                                .arg(e.block)
                                                .arg(it->second)));
    }
}

void TestStreamMechanics::pauseResume() {
    std::vector<std::uint32_t> blocks;
    for (std::uint32_t i = 0; i < 2000; ++i)
        blocks.push_back(i * 2);
    VectorSource source(blocks);
    auto policy = makePolicy("pg19");
    BufferPool pool(5000, 4000);
    SimDeviceConfig slow;
    slow.baseLatencyNs = 200'000;
    SimDevice io(slow);
    Tracer tracer;
    ReadStream stream(StreamConfig{}, *policy, kPg19Mechanics, pool, io, source, tracer);
    std::uint32_t block = 0;
    std::vector<std::uint32_t> consumed;
    for (int i = 0; i < 500; ++i) {
        QVERIFY(stream.nextBuffer(block));
        consumed.push_back(block);
        io.consume(10'000);
    }
    const int before = stream.distances().readahead;
    QVERIFY(before > 8);
    stream.pause();
    while (stream.nextBuffer(block)) // what was already pinned is still handed out
        consumed.push_back(block);
    QCOMPARE(stream.pinned(), 0);
    stream.resume();
    QCOMPARE(stream.distances().readahead, before); // no ramp from 1
    while (stream.nextBuffer(block))
        consumed.push_back(block);
    QCOMPARE(consumed, blocks);
}

void TestStreamMechanics::collapseDetection_data() {
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("prewarm");
    QTest::addColumn<bool>("collapses");
    struct Case {
        const char* row;
        const char* policy;
        const char* prewarm;
        bool collapses;
    };
    const Case cases[] = {
        {"alternating pg18", "pg18", "every:2", true},
        {"alternating pg17", "pg17", "every:2", true},
        {"alternating pg19", "pg19", "every:2", false},
        {"alternating adaptive", "adaptive", "every:2", false},
        {"1 in 16 pg18", "pg18", "except-every:16", true},
        {"1 in 16 adaptive", "adaptive", "except-every:16", false},
        {"all misses pg18", "pg18", "none", false},
        {"all cached pg18", "pg18", "all", false},
    };
    for (const Case& c : cases)
        QTest::newRow(c.row) << QString::fromLatin1(c.policy) << QString::fromLatin1(c.prewarm)
                             << c.collapses;
}

void TestStreamMechanics::collapseDetection() {
    QFETCH(QString, policy);
    QFETCH(QString, prewarm);
    QFETCH(bool, collapses);
    StreamRun run;
    run.policy = policy.toStdString();
    run.prewarm = prewarm.toStdString();
    run.run(test::firstBlocks(20000));
    const auto& intervals = run.summary.collapseIntervals;
    QCOMPARE(!intervals.empty(), collapses);
    if (collapses) {
        // One stretch covering (nearly) the whole scan.
        QCOMPARE(intervals.size(), std::size_t{1});
        QVERIFY(intervals.front().first < 32);
        QVERIFY(intervals.front().second > 19900);
    }
}

void TestStreamMechanics::compactPoolMatchesFrames() {
    // A pool that holds the whole relation keeps two bits per block; frames with a hash table must
    // give the same answer to every pin, prewarm and completed read.
    constexpr std::uint32_t kRelation = 300;
    BufferPool compact(kRelation, kRelation);
    BufferPool frames(kRelation, kRelation, BufferPool::Layout::Frames);
    SplitMix64 rng(11);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pins; // frames' handle, compact's handle
    for (int step = 0; step < 20000; ++step) {
        const auto block = static_cast<std::uint32_t>(rng.below(kRelation));
        switch (rng.below(4)) {
        case 0:
            QCOMPARE(compact.prewarm(block), frames.prewarm(block));
            break;
        case 1: {
            const BufferPool::Pinned a = compact.pin(block);
            const BufferPool::Pinned b = frames.pin(block);
            QCOMPARE(a.result, b.result);
            pins.emplace_back(b.frame, a.frame);
            if (a.result == PinResult::Allocated && rng.below(2) == 0) {
                compact.markValid(a.frame);
                frames.markValid(b.frame);
            }
            break;
        }
        default:
            if (!pins.empty()) {
                const std::size_t i = rng.below(pins.size());
                frames.unpin(pins[i].first);
                compact.unpin(pins[i].second);
                pins.erase(pins.begin() + static_cast<std::ptrdiff_t>(i));
            }
            break;
        }
        QCOMPARE(compact.resident(), frames.resident());
    }
}

void TestStreamMechanics::evictingPoolMatchesClockSweep() {
    // A pool far smaller than the relation evicts on almost every miss. Against a model that finds
    // blocks by looking at every frame, and sweeps the same clock: each pin's answer and handle, and
    // what stays resident, must agree (a hash chain broken by an eviction would lose or invent a block).
    constexpr std::uint32_t kCapacity = 24; // about one eviction in seven unlinks from a shared bucket
    constexpr std::uint32_t kRelation = 200;
    struct ModelFrame {
        std::uint32_t block = 0;
        int pins = 0;
        int usage = 0;
        bool valid = false;
    };
    std::vector<ModelFrame> model;
    std::uint32_t hand = 0;
    const auto modelFind = [&](std::uint32_t block) -> int {
        for (std::size_t i = 0; i < model.size(); ++i)
            if (model[i].block == block)
                return static_cast<int>(i);
        return -1;
    };
    const auto modelAllocate = [&](std::uint32_t block, int pins, bool valid) {
        std::uint32_t frame = 0;
        if (model.size() < kCapacity) {
            frame = static_cast<std::uint32_t>(model.size());
            model.emplace_back();
        } else {
            for (;;) {
                ModelFrame& candidate = model[hand];
                const std::uint32_t here = hand;
                hand = (hand + 1) % kCapacity;
                if (candidate.pins > 0)
                    continue;
                if (candidate.usage > 0) {
                    --candidate.usage;
                    continue;
                }
                frame = here;
                break;
            }
        }
        model[frame] = ModelFrame{block, pins, 1, valid};
        return frame;
    };

    BufferPool pool(kCapacity, kRelation);
    SplitMix64 rng(29);
    std::vector<std::uint32_t> pinned; // frame handles, one per pin
    std::uint64_t evictions = 0;
    for (int step = 0; step < 50000; ++step) {
        const auto block = static_cast<std::uint32_t>(rng.below(kRelation));
        const std::uint64_t action = rng.below(8);
        if (action == 0) {
            const bool resident = modelFind(block) >= 0;
            if (!resident) {
                evictions += model.size() == kCapacity ? 1 : 0;
                modelAllocate(block, 0, true);
            }
            QCOMPARE(pool.prewarm(block), !resident);
        } else if (action < 4 && pinned.size() < kCapacity - 4) {
            const BufferPool::Pinned got = pool.pin(block);
            const int found = modelFind(block);
            if (found >= 0) {
                ModelFrame& frame = model[static_cast<std::size_t>(found)];
                ++frame.pins;
                frame.usage = std::min(frame.usage + 1, 5);
                QCOMPARE(got.result, frame.valid ? PinResult::Hit : PinResult::InProgress);
                QCOMPARE(got.frame, static_cast<std::uint32_t>(found));
            } else {
                evictions += model.size() == kCapacity ? 1 : 0;
                QCOMPARE(got.result, PinResult::Allocated);
                QCOMPARE(got.frame, modelAllocate(block, 1, false));
            }
            pinned.push_back(got.frame);
            if (rng.below(2) == 0) {
                pool.markValid(got.frame);
                model[got.frame].valid = true;
            }
        } else if (!pinned.empty()) {
            const std::size_t i = rng.below(pinned.size());
            pool.unpin(pinned[i]);
            --model[pinned[i]].pins;
            pinned.erase(pinned.begin() + static_cast<std::ptrdiff_t>(i));
        }
        QCOMPARE(pool.resident(), static_cast<std::uint64_t>(model.size()));
    }
    QVERIFY2(evictions > 10000, qPrintable(QString("only %1 evictions").arg(evictions)));
}

void TestStreamMechanics::compactPoolStreamMatchesFrames_data() {
    QTest::addColumn<QString>("prewarm");
    QTest::addColumn<QString>("policy");
    for (const char* prewarm : {"none", "every:2", "except-every:16", "fraction:0.3:5"})
        for (const char* policy : {"pg17", "pg18", "pg19", "adaptive"})
            QTest::addRow("%s %s", prewarm, policy) << QString(prewarm) << QString(policy);
}

void TestStreamMechanics::compactPoolStreamMatchesFrames() {
    QFETCH(QString, prewarm);
    QFETCH(QString, policy);
    // A scan with revisits, so that some blocks are found in progress and some already read.
    std::vector<std::uint32_t> blocks;
    SplitMix64 rng(3);
    for (std::uint32_t i = 0; i < 3000; ++i)
        blocks.push_back(rng.below(4) == 0 ? static_cast<std::uint32_t>(rng.below(2000)) : i % 2000);
    const std::vector<Event> compact =
        traceWithLayout(blocks, 2000, prewarm.toStdString(), policy.toStdString(), BufferPool::Layout::Auto);
    const std::vector<Event> frames = traceWithLayout(blocks, 2000, prewarm.toStdString(),
                                                      policy.toStdString(), BufferPool::Layout::Frames);
    QCOMPARE(compact.size(), frames.size());
    for (std::size_t i = 0; i < compact.size(); ++i)
        QVERIFY2(sameEvent(compact[i], frames[i]), qPrintable(QString("event %1 differs").arg(i)));
}

QTEST_GUILESS_MAIN(TestStreamMechanics)
#include "tst_stream_mechanics.moc"

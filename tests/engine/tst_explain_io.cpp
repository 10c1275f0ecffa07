// SPDX-License-Identifier: GPL-3.0-or-later
// EXPLAIN (ANALYZE, IO)'s read-stream figures (docs/explain-io.md), checked against the trace of the
// same scan: each counter is recomputed here from the events at the points the doc names.

#include "explain_io.h"
#include "stream_harness.h"

#include <QtTest>

#include <algorithm>

using namespace la;
using namespace la::test;

class TestExplainIo : public QObject {
    Q_OBJECT
private slots:
    void textForm();
    void nothingToPrint();
    void fixedDistanceSequentialScan();
    void allCachedFastPath();
    void countersSpanResets();
};

void TestExplainIo::textForm() {
    ExplainIo io;
    io.distanceCapacity = 94;
    for (const int pinned : {1, 2, 3, 4})
        io.countPrefetch(pinned);
    io.countIo(16, 1);
    io.countIo(16, 2);
    io.countWait();
    QCOMPARE(explainPrefetchLine(io), std::string("Prefetch: avg=2.50 max=4 capacity=94"));
    QCOMPARE(explainIoLine(io), std::string("I/O: count=2 waits=1 size=16.00 in-progress=1.50"));
    QCOMPARE(explainIoText(io), std::string("  Prefetch: avg=2.50 max=4 capacity=94\n"
                                            "  I/O: count=2 waits=1 size=16.00 in-progress=1.50\n"));
}

void TestExplainIo::nothingToPrint() {
    // explain.c prints nothing without a sample, and no I/O line without a read.
    ExplainIo io;
    io.distanceCapacity = 16;
    QVERIFY(explainIoText(io).empty());
    io.countPrefetch(1);
    QCOMPARE(explainIoText(io), std::string("  Prefetch: avg=1.00 max=1 capacity=16\n"));
    // An observed run: its reads, and neither pins nor waits.
    ExplainIo observed;
    observed.prefetchKnown = false;
    observed.waitsKnown = false;
    observed.countIo(4, 1);
    observed.countIo(2, 2);
    QCOMPARE(explainIoText(observed), std::string("  I/O: count=2 waits=? size=3.00 in-progress=1.50\n"));
}

void TestExplainIo::fixedDistanceSequentialScan() {
    // A sequential all-miss scan at a constant distance of 32: no fast path and no reset, so every
    // buffer handed out is one Consumed event, sampled with its own pin still held.
    StreamRun run;
    run.policy = "fixed:32";
    run.run(firstBlocks(1000));
    const ExplainIo& io = run.summary.explainIo;

    std::uint64_t consumed = 0, pinnedSum = 0, reads = 0, readBlocks = 0, inFlightSum = 0, waits = 0;
    int pinnedMax = 0;
    for (const Event& e : run.trace.events) {
        if (e.kind == EventKind::Consumed) {
            ++consumed;
            pinnedSum += e.pinned;
            pinnedMax = std::max<int>(pinnedMax, e.pinned);
        } else if (e.kind == EventKind::ReadStarted) {
            ++reads;
            readBlocks += e.nblocks;
            inFlightSum += e.in_flight; // after the event: the new read included
        } else if (e.kind == EventKind::Waited) {
            ++waits; // the simulated device is asynchronous: a wait is a read that blocked
        }
    }
    QCOMPARE(consumed, 1000ull);
    QCOMPARE(io.prefetchCount, consumed);
    QCOMPARE(io.distanceSum, pinnedSum);
    QCOMPARE(io.distanceMax, pinnedMax);
    QCOMPARE(io.distanceCapacity, computeLimits(run.stream, kPg18Mechanics).maxPinned);
    QCOMPARE(io.ioCount, reads);
    QCOMPARE(io.ioBlocks, 1000ull); // every block was read once
    QCOMPARE(io.ioBlocks, readBlocks);
    QCOMPARE(io.ioInProgress, inFlightSum);
    QCOMPARE(io.waitCount, waits);
    QCOMPARE(io.waitCount, run.summary.waits);
    // A distance of 32 keeps at most 32 buffers pinned; reads are at most io_combine_limit blocks.
    QVERIFY(io.distanceMax <= 32);
    QVERIFY(io.ioSizeAvg() <= run.stream.ioCombineLimit);
}

void TestExplainIo::allCachedFastPath() {
    // All cached: the first buffer comes from the normal path with one pin; then the fast path
    // holds one pin at each hand-out, and its last call (the end of the stream) samples nothing.
    StreamRun run;
    run.prewarm = "all";
    run.run(firstBlocks(200));
    const ExplainIo& io = run.summary.explainIo;
    QCOMPARE(run.summary.blocks, 200ull);
    QCOMPARE(io.prefetchCount, 199ull);
    QCOMPARE(io.distanceSum, 199ull);
    QCOMPARE(io.distanceMax, 1);
    QCOMPARE(io.ioCount, 0ull);
    QCOMPARE(explainIoLine(io), std::string());
    QCOMPARE(explainPrefetchLine(io).substr(0, 24), std::string("Prefetch: avg=1.00 max=1"));
}

void TestExplainIo::countersSpanResets() {
    // The counters belong to the scan, not to one stretch between resets. A reset comes once the
    // consumer has taken every buffer of the stretch, so its drain hands out nothing more.
    StreamRun run;
    run.policy = "fixed:32";
    run.resetEvery = 100;
    run.run(firstBlocks(1000));
    const ExplainIo& io = run.summary.explainIo;
    QCOMPARE(run.summary.resets, 9ull);
    QCOMPARE(io.prefetchCount, run.summary.blocks);
    QCOMPARE(io.ioBlocks, run.summary.misses);
    QCOMPARE(io.ioCount, run.summary.ios);
}

QTEST_GUILESS_MAIN(TestExplainIo)
#include "tst_explain_io.moc"

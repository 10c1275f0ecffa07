// SPDX-License-Identifier: GPL-3.0-or-later
// A plan run (docs/plan-runs.md): the streams of one backend read interleaved, turn by turn, on one
// simulated device and one pool of shared buffers, each with its own figures and events.

#include "input_error.h"
#include "run.h"
#include "run_options.h"
#include "sim_device.h"
#include "stream_harness.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>

using namespace la;

class TestPlanRun : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    // A block list of visits at `name` in the test's directory.
    std::string list(const QString& name, const QByteArray& text) {
        return test::writeFile(m_dir.filePath(name), text).toStdString();
    }
    static RunConfig planConfig(const std::string& blocks) {
        RunConfig config = defaultRunConfig();
        config.blockList = blocks;
        config.prewarm = "none";
        return config;
    }

private slots:
    // What the streams share: the device, shared buffers, the backend's pin limit.
    void theDeviceWaitsForAReadBeforAnOlderOne();
    void streamsShareTheBuffersTheyRead();
    void theOtherStreamsPinsCountAgainstTheLimit();
    // What each has of its own: its turns, events, read ids and resets.
    void turnsInterleaveTheStreamsEvents();
    // Lists and settings a plan run cannot take.
    void badListsAreRefused();
};

// Stream 0 starts a long read, stream 1 a short one after it; stream 1 waits for its own first, as a
// backend's second stream does, and then stream 0 for its own.
void TestPlanRun::theDeviceWaitsForAReadBeforAnOlderOne() {
    SimDeviceConfig config;
    config.baseLatencyNs = 1000;
    config.perBlockNs = 1000;
    config.parallelism = 2;
    SimDevice device(config);
    device.start(ReadRequest{1, 0, 16, false, false});  // 17 us
    device.start(ReadRequest{2, 100, 1, false, false}); // 2 us
    const ReadOutcome second = device.wait(2);
    QVERIFY(second.blocked);
    QCOMPARE(second.waitNs, std::int64_t(2000));
    QCOMPARE(device.now(), std::int64_t(2000));
    const ReadOutcome first = device.wait(1);
    QCOMPARE(first.waitNs, std::int64_t(15'000));
    QCOMPARE(first.latencyNs, std::int64_t(17'000));
    // Both have left: a read never started is not waited for.
    QCOMPARE(device.wait(2).latencyNs, std::int64_t(0));
    device.start(ReadRequest{3, 200, 1, false, false});
    QCOMPARE(device.wait(3).latencyNs, std::int64_t(2000));
}

// Stream 1 visits what stream 0 read before it: hits in the one pool, where on its own it misses.
void TestPlanRun::streamsShareTheBuffersTheyRead() {
    QByteArray text = "stream 0\n" + test::blockLines(0, 200) + "stream 1\n" + test::blockLines(0, 200, 2) +
                      test::blockLines(500, 600);
    const RunSummary plan = runScan(planConfig(list("shared.txt", text)), "pg19", {});
    QCOMPARE(plan.streams.size(), std::size_t(2));
    QCOMPARE(plan.streams[0].misses, std::uint64_t(200));
    QCOMPARE(plan.streams[1].hits, std::uint64_t(100));
    QCOMPARE(plan.streams[1].misses, std::uint64_t(100));
    // The run's figures are the drawn stream's (stream 0 unless --shown-stream says), as its views.
    QCOMPARE(plan.blocks, std::uint64_t(200));
    QCOMPARE(plan.misses, plan.streams[0].misses);
    QCOMPARE(plan.ios, plan.streams[0].ios);
    RunConfig second = planConfig(list("shared.txt", text));
    second.shownStream = 1;
    const RunSummary drawn = runScan(second, "pg19", {});
    QCOMPARE(drawn.hits, std::uint64_t(100));
    QCOMPARE(drawn.blocks, drawn.streams[1].blocks);
    QCOMPARE(drawn.runtimeNs, std::max(drawn.streams[0].runtimeNs, drawn.streams[1].runtimeNs));
    const RunSummary alone = runScan(
        planConfig(list("alone.txt", test::blockLines(0, 200, 2) + test::blockLines(500, 600))), "pg19", {});
    QCOMPARE(alone.misses, std::uint64_t(200));
    QVERIFY(alone.streams.empty());
}

// A nested loop: an outer block, then the inner visits of its rows with a rescan between rows. The
// events come in the turns' order, each saying its stream; each stream's reads have ids of their own,
// and its resets are its own.
void TestPlanRun::turnsInterleaveTheStreamsEvents() {
    QByteArray text;
    for (int outer = 0; outer < 20; ++outer) {
        text += "stream 0\n" + QByteArray::number(outer) + "\nstream 1\n";
        for (int row = 0; row < 5; ++row)
            text += QByteArray::number(1000 + (outer * 53 + row * 7) % 900) + "\n" +
                    QByteArray::number(1000 + (outer * 31 + row * 11) % 900) + "\nreset\n";
    }
    test::TraceRecorder trace;
    RunCallbacks callbacks;
    callbacks.sinks.push_back(&trace);
    RunConfig config = planConfig(list("loop.txt", text));
    config.shownStream = 1;
    const RunSummary plan = runScan(config, "pg18", callbacks);
    QCOMPARE(plan.streams[0].blocks, std::uint64_t(20));
    QCOMPARE(plan.streams[1].blocks, std::uint64_t(200));
    QCOMPARE(plan.streams[0].resets, std::uint64_t(0));
    QCOMPARE(plan.streams[1].resets, std::uint64_t(100));
    QCOMPARE(plan.resets, std::uint64_t(100)); // the drawn stream's, the inner one
    // The consumer's buffers in the turns' order: outer block k, then its rows' inner visits.
    std::vector<std::pair<int, std::uint32_t>> consumed;
    std::set<std::uint32_t> ids[2];
    for (const Event& e : trace.events) {
        QVERIFY(e.stream < 2);
        if (e.kind == EventKind::Consumed)
            consumed.emplace_back(e.stream, e.block);
        if (e.kind == EventKind::ReadStarted)
            ids[e.stream].insert(e.io_id);
    }
    QCOMPARE(consumed.size(), std::size_t(220));
    QCOMPARE(consumed[0], std::make_pair(0, std::uint32_t(0)));
    QCOMPARE(consumed[1].first, 1);
    QCOMPARE(consumed[11], std::make_pair(0, std::uint32_t(1)));
    QCOMPARE(ids[0].size(), std::size_t(plan.streams[0].ios));
    QCOMPARE(ids[1].size(), std::size_t(plan.streams[1].ios));
    for (const std::uint32_t id : ids[0])
        QVERIFY(!ids[1].contains(id));
}

// The backend's pin limit (PostgreSQL 18+, GetPinLimit) is for all its streams: a stream that looks
// far ahead leaves the next one less to pin than it would have alone.
void TestPlanRun::theOtherStreamsPinsCountAgainstTheLimit() {
    const QByteArray second = test::blockLines(5000, 5400, 3);
    QByteArray text = "stream 0\n" + test::blockLines(0, 45, 3) + "stream 1\n" + second + "stream 0\n" +
                      test::blockLines(400, 800, 3);
    RunConfig config = planConfig(list("pins.txt", text));
    config.poolBlocks = 4000; // a pin limit of a few dozen buffers for the backend
    config.stream.effectiveIoConcurrency = 64;
    const RunSummary plan = runScan(config, "pg18", {});
    RunConfig aloneConfig = planConfig(list("pins-alone.txt", second));
    aloneConfig.poolBlocks = 4000;
    aloneConfig.stream.effectiveIoConcurrency = 64;
    const RunSummary alone = runScan(aloneConfig, "pg18", {});
    QVERIFY2(plan.streams[1].pinnedMean < alone.pinnedMean,
             qPrintable(QStringLiteral("%1 pinned beside the other stream, %2 alone")
                            .arg(plan.streams[1].pinnedMean)
                            .arg(alone.pinnedMean)));
}

void TestPlanRun::badListsAreRefused() {
    const auto refused = [&](const QByteArray& text, const char* expected, RunConfig change = {}) {
        RunConfig config = change.blockList.empty() ? planConfig(list("bad.txt", text)) : change;
        try {
            runScan(config, "pg19", {});
        } catch (const InputError& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QLatin1String(expected)), error.what());
            return;
        }
        QFAIL(expected);
    };
    refused("stream 0\n1\nstream 64\n2\n",
            "line 3: 'stream 64' names no stream (expected 'stream N', N 0..63)");
    refused("stream 0\n1\nstream x\n2\n", "'stream x' names no stream");
    refused("stream 0\n1\nstream 2\n2\n", "names stream 1 but gives it no block");
    RunConfig backward = planConfig(list("two.txt", "stream 0\n1\nstream 1\n2\n"));
    backward.dataset.direction = Direction::Backward;
    refused({}, "it has no backward scan", backward);
    RunConfig every = planConfig(list("two.txt", "stream 0\n1\nstream 1\n2\n"));
    every.resetEvery = 2;
    refused({}, "--reset-every: block list", every);
    RunConfig ring = planConfig(list("two.txt", "stream 0\n1\nstream 1\n2\n"));
    ring.strategy = StrategyChoice::BulkRead;
    refused({}, "a BULKREAD ring per stream is not modelled yet", ring);
    // A prewarm list reads no stream lines.
    RunConfig prewarm = planConfig(list("two.txt", "stream 0\n1\nstream 1\n2\n"));
    prewarm.prewarm = "list:" + list("cached.txt", "stream 0\n1\n");
    refused({}, "marks the blocks of another stream, which only a block list of visits", prewarm);
}

QTEST_GUILESS_MAIN(TestPlanRun)
#include "tst_plan_run.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The run controller: a worker thread per run, drained on the GUI thread; stop, restart and
// destruction mid-run are clean. Also run under TSan (see tests/tsan-qt.supp).
#include "gui/jobs/run_controller.h"
#include "gui/jobs/run_mailbox.h"
#include "signal_waits.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>

using namespace la;

namespace {

RunConfig smallRun() {
    RunConfig config;
    config.dataset.name = "alternating";
    config.dataset.blocks = 8192;
    config.policy = "pg18";
    config.comparePolicy = "pg19";
    return config;
}

constexpr int kTimeoutMs = 20'000;

// Long enough that it is still running whenever the test acts on it.
RunConfig longRun() {
    RunConfig config;
    config.dataset.name = "seq";
    config.dataset.blocks = 200'000'000;
    return config;
}

// Starts the long run on `controller` and waits for its first events.
bool longRunGoing(RunController& controller) {
    QSignalSpy data(&controller, &RunController::dataArrived);
    controller.start(longRun());
    return data.count() > 0 || data.wait(kTimeoutMs);
}

// The small run on a block list that cannot be read: it fails in the worker, once started.
RunConfig unreadableBlockList() {
    RunConfig config = smallRun();
    config.blockList = "/nonexistent/blocks.txt";
    return config;
}

} // namespace

class TestGuiController : public QObject {
    Q_OBJECT
private slots:
    void runDeliversEveryEvent();
    void repeatedRunShowsItsMedianRepeat();
    void stopMidRun();
    void restartDropsTheOldRun();
    void destroyMidRun();
    void unknownPolicyFailsAtOnce();
    void badBlockListFailsFromTheWorker();
    void spoolsHoldEveryEvent();
    void failedStartKeepsTheRunsOnScreen();
    void mailboxBackPressureKeepsEveryEvent();
    void mailboxNeverBlocksACancelledWorker();
    void mailboxHandsOutBoundedParts();
    void mailboxMessagesStayBounded();
};

void TestGuiController::runDeliversEveryEvent() {
    RunController controller;
    QSignalSpy started(&controller, &RunController::started);
    QSignalSpy shown(&controller, &RunController::tracesChanged);
    QSignalSpy runFinished(&controller, &RunController::runFinished);
    QSignalSpy finished(&controller, &RunController::finished);
    QSignalSpy failed(&controller, &RunController::failed);
    controller.start(smallRun());
    QCOMPARE(started.count(), 1);
    QCOMPARE(test::caught(finished, 1, kTimeoutMs), 1);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(controller.traces().size(), std::size_t(2));
    QCOMPARE(finished.first().first().toBool(), false);
    QCOMPARE(failed.count(), 0);
    QCOMPARE(runFinished.count(), 2);
    QVERIFY(!controller.running());
    const std::vector<RunSummary> summaries = controller.summaries();
    QCOMPARE(summaries.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        const RunTrace& trace = *controller.traces()[i];
        QCOMPARE(trace.positions(), std::uint64_t(8192));
        QCOMPARE(trace.positions(), summaries[i].blocks);
        QCOMPARE(trace.reads(), static_cast<std::size_t>(summaries[i].ios));
        QCOMPARE(trace.endTimeNs(), summaries[i].runtimeNs);
    }
    QCOMPARE(controller.traces()[0]->label(), std::string("pg18"));
    QCOMPARE(controller.traces()[1]->label(), std::string("pg19"));
    QVERIFY(controller.traces()[0]->limits().maxPinned > 0);
}

// A repeated real-I/O A/B (docs/repeats.md): each repeat is drawn in turn, then each run's trace is
// its median repeat's, exactly, beside a summary carrying every repeat.
void TestGuiController::repeatedRunShowsItsMedianRepeat() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RunConfig config;
    config.io = IoMode::Sync;
    config.directIo = false;
    config.cacheDir = dir.path().toStdString();
    config.dataset.name = "seq";
    config.dataset.blocks = 2048;
    config.policy = "pg18";
    config.comparePolicy = "pg19";
    config.repeat = 3;
    RunController controller;
    QSignalSpy repeats(&controller, &RunController::repeatStarted);
    QSignalSpy runFinished(&controller, &RunController::runFinished);
    QSignalSpy finished(&controller, &RunController::finished);
    controller.start(config);
    QCOMPARE(test::caught(finished, 1, kTimeoutMs), 1);
    QCOMPARE(repeats.count(), 6);
    QCOMPARE(runFinished.count(), 2);
    const std::vector<RunSummary> summaries = controller.summaries();
    QCOMPARE(summaries.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(summaries[i].repeats.size(), std::size_t(3));
        const RunTrace& trace = *controller.traces()[i];
        QCOMPARE(trace.positions(), std::uint64_t(2048));
        QCOMPARE(trace.reads(), static_cast<std::size_t>(summaries[i].ios));
    }
}

void TestGuiController::stopMidRun() {
    RunController controller;
    QSignalSpy finished(&controller, &RunController::finished);
    QVERIFY(longRunGoing(controller));
    controller.stop();
    // The stop takes effect (the timeout only guards against a hang): finished(cancelled), a summary
    // that says so, and a trace that ends where the worker stopped.
    QCOMPARE(test::caught(finished, 1, kTimeoutMs), 1);
    QCOMPARE(finished.first().first().toBool(), true);
    const RunTrace& trace = *controller.traces()[0];
    QVERIFY(trace.summary());
    QVERIFY(trace.summary()->cancelled);
    QCOMPARE(trace.positions(), trace.summary()->blocks);
    QVERIFY(trace.positions() < 200'000'000);
}

void TestGuiController::restartDropsTheOldRun() {
    RunController controller;
    QSignalSpy finished(&controller, &RunController::finished);
    QVERIFY(longRunGoing(controller));
    controller.start(smallRun());
    QCOMPARE(controller.generation(), quint64(2));
    QCOMPARE(test::caught(finished, 1, kTimeoutMs), 1);
    QCOMPARE(controller.traces().size(), std::size_t(2));
    QCOMPARE(controller.traces()[0]->positions(), std::uint64_t(8192));
    QCOMPARE(controller.summaries().size(), std::size_t(2));
}

void TestGuiController::destroyMidRun() {
    auto controller = std::make_unique<RunController>();
    QVERIFY(longRunGoing(*controller));
    // The destructor cancels and joins the worker: a hang trips ctest's timeout, a worker still
    // writing into the freed controller trips the ASan and TSan runs.
    controller.reset();
}

void TestGuiController::unknownPolicyFailsAtOnce() {
    RunController controller;
    QSignalSpy failed(&controller, &RunController::failed);
    QSignalSpy started(&controller, &RunController::started);
    RunConfig config = smallRun();
    config.comparePolicy = "pg99";
    controller.start(config);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(started.count(), 0);
    QVERIFY(!controller.running());
}

void TestGuiController::badBlockListFailsFromTheWorker() {
    RunController controller;
    QSignalSpy failed(&controller, &RunController::failed);
    QSignalSpy finished(&controller, &RunController::finished);
    controller.start(unreadableBlockList());
    QCOMPARE(test::caught(finished, 1, kTimeoutMs), 1);
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("/nonexistent/blocks.txt")),
             qPrintable(failed.first().first().toString()));
    QVERIFY(controller.summaries().empty());
}

namespace {

// Counts what a replayed spool hands back, and builds the summary from it.
class CountingSink final : public EventSink {
public:
    void onEvents(std::span<const Event> batch) override {
        events += batch.size();
        for (const Event& e : batch) {
            consumed += e.kind == EventKind::Consumed;
            reads += e.kind == EventKind::ReadStarted;
        }
        builder.onEvents(batch);
    }
    std::uint64_t events = 0, consumed = 0, reads = 0;
    SummaryBuilder builder;
};

} // namespace

// The spool of each run holds all its events, not only those the views read: replayed, they give
// the run's own summary.
void TestGuiController::spoolsHoldEveryEvent() {
    RunController controller;
    QSignalSpy finished(&controller, &RunController::finished);
    controller.start(smallRun());
    QCOMPARE(test::caught(finished, 1, kTimeoutMs), 1);
    const auto spools = controller.spools();
    const auto summaries = controller.summaries();
    QCOMPARE(spools.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        QVERIFY(spools[i]);
        QVERIFY2(spools[i]->broken().empty(), spools[i]->broken().c_str());
        CountingSink sink;
        std::uint64_t lastDone = 0;
        QVERIFY(
            spools[i]->replay(sink, nullptr, [&](std::uint64_t done, std::uint64_t) { lastDone = done; }));
        QCOMPARE(sink.events, spools[i]->events());
        QCOMPARE(lastDone, sink.events);
        QCOMPARE(sink.consumed, summaries[i].blocks);
        QCOMPARE(sink.reads, summaries[i].ios);
        QVERIFY(sink.events > sink.consumed + sink.reads); // hits, misses, distance changes too
        RunSummary rebuilt;
        sink.builder.finish(rebuilt);
        QCOMPARE(rebuilt.hits, summaries[i].hits);
        QCOMPARE(rebuilt.misses, summaries[i].misses);
        QCOMPARE(rebuilt.waits, summaries[i].waits);
        QCOMPARE(rebuilt.runtimeNs, summaries[i].runtimeNs);
    }
}

// A start that fails in the worker (a block list that cannot be read) never replaces the runs on
// screen: the same traces, summaries and experiment stay.
void TestGuiController::failedStartKeepsTheRunsOnScreen() {
    RunController controller;
    QSignalSpy finished(&controller, &RunController::finished);
    QSignalSpy shown(&controller, &RunController::tracesChanged);
    QSignalSpy failed(&controller, &RunController::failed);
    controller.start(smallRun());
    QCOMPARE(test::caught(finished, 1, kTimeoutMs), 1);
    const std::vector<const RunTrace*> before = controller.traces();
    const std::uint64_t blocks = controller.summaries().front().blocks;
    const RunConfig bad = unreadableBlockList();
    controller.start(bad);
    QCOMPARE(test::caught(finished, 2, kTimeoutMs), 2);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(controller.traces(), before);
    QCOMPARE(controller.summaries().size(), std::size_t(2));
    QCOMPARE(controller.summaries().front().blocks, blocks);
    QVERIFY(controller.config().blockList.empty());
    QCOMPARE(controller.runningExperiment().runs.front().config.blockList, bad.blockList);
}

// A worker far ahead of the drain is held back: the mailbox never holds more than its bound (and
// the batch being posted), and every event still arrives, in order. The drain takes only once the
// worker has filled the mailbox, so each drain but the last finds it at its bound.
void TestGuiController::mailboxBackPressureKeepsEveryEvent() {
    constexpr std::size_t kBound = 1000;
    constexpr std::size_t kBatch = 100;
    constexpr int kBatches = 2000;
    constexpr int kPostsToFill = kBound / kBatch;
    Mailbox mailbox(kBound);
    // Posts counted from the mailbox's own callback, so the drain waits for them rather than polls.
    std::mutex postsMutex;
    std::condition_variable posted;
    int posts = 0;
    mailbox.setOnPost([&] {
        {
            const std::lock_guard lock(postsMutex);
            ++posts;
        }
        posted.notify_all();
    });
    std::atomic<bool> cancel{false};
    std::thread worker([&] {
        std::vector<Event> batch(kBatch);
        for (int i = 0; i < kBatches; ++i) {
            for (Event& e : batch)
                e.position = static_cast<std::uint32_t>(i);
            mailbox.postEvents(0, batch, cancel);
        }
        mailbox.post(WorkerMessage{});
        mailbox.markFinished();
    });
    std::size_t events = 0;
    std::size_t mostInOneDrain = 0;
    std::uint32_t lastPosition = 0;
    bool inOrder = true;
    bool done = false;
    int postsAtLastDrain = 0;
    while (!done) {
        {
            // The worker is held at the bound after kPostsToFill posts; the last ones may be fewer.
            std::unique_lock lock(postsMutex);
            const bool filled = posted.wait_for(lock, std::chrono::seconds(30), [&] {
                return posts >= postsAtLastDrain + kPostsToFill || posts == kBatches + 1;
            });
            if (!filled) {
                cancel = true;
                break;
            }
            postsAtLastDrain = posts;
        }
        WorkerProgress progress;
        std::size_t drained = 0;
        for (WorkerMessage& m : mailbox.take(progress)) {
            drained += m.events.size();
            for (const Event& e : m.events) {
                inOrder = inOrder && e.position >= lastPosition;
                lastPosition = e.position;
            }
            done = done || m.kind == WorkerMessage::Kind::Done;
        }
        events += drained;
        mostInOneDrain = std::max(mostInOneDrain, drained);
    }
    worker.join();
    QVERIFY2(done, "the worker never filled the mailbox nor finished");
    QCOMPARE(events, std::size_t(kBatches) * kBatch);
    QVERIFY(inOrder);
    QCOMPARE(lastPosition, std::uint32_t(kBatches - 1));
    // The first drain came once the worker had filled it: the bound was reached and held.
    QVERIFY2(mostInOneDrain >= kBound && mostInOneDrain <= kBound + kBatch,
             qPrintable(QString::number(mostInOneDrain)));
}

// A drain takes at most so many events: a long batch comes out in parts, in order, with the messages
// around it in their places, and the mailbox says while it holds more.
void TestGuiController::mailboxHandsOutBoundedParts() {
    Mailbox mailbox;
    const std::atomic<bool> cancel{false};
    WorkerMessage started;
    started.kind = WorkerMessage::Kind::RunStarted;
    mailbox.post(started);
    std::vector<Event> batch(25);
    for (std::size_t i = 0; i < batch.size(); ++i)
        batch[i].position = static_cast<std::uint32_t>(i);
    mailbox.postEvents(0, batch, cancel);
    mailbox.post(WorkerMessage{}); // Done
    std::vector<WorkerMessage::Kind> kinds;
    std::vector<std::uint32_t> positions;
    std::vector<std::size_t> sizes;
    WorkerProgress progress;
    bool backlog = true;
    while (backlog) {
        std::size_t taken = 0;
        for (const WorkerMessage& message : mailbox.take(progress, 10)) {
            kinds.push_back(message.kind);
            taken += message.events.size();
            for (const Event& event : message.events)
                positions.push_back(event.position);
        }
        sizes.push_back(taken);
        backlog = mailbox.backlog();
    }
    QCOMPARE(sizes, std::vector<std::size_t>({10, 10, 5}));
    using Kind = WorkerMessage::Kind;
    QCOMPARE(kinds,
             std::vector<Kind>({Kind::RunStarted, Kind::Events, Kind::Events, Kind::Events, Kind::Done}));
    std::vector<std::uint32_t> expected(batch.size());
    std::iota(expected.begin(), expected.end(), 0U);
    QCOMPARE(positions, expected);
}

void TestGuiController::mailboxNeverBlocksACancelledWorker() {
    Mailbox mailbox(10);
    std::atomic<bool> cancel{false};
    std::vector<Event> batch(100);
    mailbox.postEvents(0, batch, cancel); // fills it
    cancel = true;
    // Returns although the mailbox is over its limit (a wait would hang here, up to ctest's timeout),
    // and still delivers the events.
    std::thread worker([&] { mailbox.postEvents(0, batch, cancel); });
    worker.join();
    WorkerProgress progress;
    std::size_t events = 0;
    for (const WorkerMessage& message : mailbox.take(progress))
        events += message.events.size();
    QCOMPARE(events, std::size_t(200));
}

// While the GUI takes parts of the first message the worker goes on posting: its events go to new
// messages once the first is full, never into one that grows without end (each growth of which
// copied it under the lock the GUI waits on).
void TestGuiController::mailboxMessagesStayBounded() {
    constexpr std::size_t kMessageEvents = 16;
    Mailbox mailbox(std::size_t(1) << 17, kMessageEvents);
    const std::atomic<bool> cancel{false};
    std::vector<Event> batch(10);
    std::uint32_t next = 0;
    std::vector<std::uint32_t> positions;
    WorkerProgress progress;
    const auto keep = [&](const std::deque<WorkerMessage>& messages) {
        for (const WorkerMessage& message : messages) {
            QVERIFY2(message.events.size() <= kMessageEvents,
                     qPrintable(QString::number(message.events.size())));
            for (const Event& event : message.events)
                positions.push_back(event.position);
        }
    };
    for (int round = 0; round < 100; ++round) {
        for (Event& e : batch)
            e.position = next++;
        mailbox.postEvents(0, batch, cancel);
        keep(mailbox.take(progress, 7));
    }
    keep(mailbox.take(progress));
    QVERIFY(!mailbox.backlog());
    std::vector<std::uint32_t> expected(next);
    std::iota(expected.begin(), expected.end(), 0u);
    QCOMPARE(positions, expected);
}

QTEST_GUILESS_MAIN(TestGuiController)
#include "tst_gui_controller.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The model thread (widgets/model/model_thread.h): tasks in rank order, slices under the model's lock,
// a GUI thread that never waits for a busy model thread in a frame, and tasks that are gone once
// removed.
#include "model_thread.h"

#include <QTest>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <utility>
#include <vector>

using namespace la;

namespace {

using Clock = ModelThread::Clock;

// A hang guard only: every wait below ends as soon as what it waits for happens.
constexpr auto kHangGuard = std::chrono::seconds(30);

// Counts of what happened on the model thread, each waited for under a condition variable.
class Counts {
public:
    void add(int& count) {
        {
            const std::lock_guard lock(m_mutex);
            ++count;
        }
        m_changed.notify_all();
    }
    int read(const int& count) const {
        const std::lock_guard lock(m_mutex);
        return count;
    }
    // Waits until `count` passes `seen`; false if that never happens.
    bool waitPast(const int& count, int seen) {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, kHangGuard, [&] { return count > seen; });
    }

    int slices = 0;       // slices the busy task began
    int slicesEnded = 0;  // and ended
    int steppedAside = 0; // ModelThread::Moment::SteppedAside
    int keptOut = 0;      // ModelThread::Moment::KeptOut

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
};

// The observer that counts the model thread's moments.
ModelThread::Observer observe(Counts& counts) {
    return [&counts](ModelThread::Moment moment) {
        counts.add(moment == ModelThread::Moment::SteppedAside ? counts.steppedAside : counts.keptOut);
    };
}

// A task with work without end: each slice spins until its deadline (the model thread's own, not the
// test's: the lock is held for as long as a real task would hold it) and counts itself.
ModelThread::Task busy(Counts& counts) {
    return [&counts](Clock::time_point deadline) {
        counts.add(counts.slices);
        while (Clock::now() < deadline) {
        }
        counts.add(counts.slicesEnded);
        return true;
    };
}

// Takes the lock as a frame does: tries it, and when the model thread has it, waits until the thread
// steps aside for it and tries again (it steps aside for 20 ms at most, so a test thread kept from the
// CPU longer tries once more). `whileHeld` runs with the lock held; false if it is never got.
bool takeLikeAFrame(ModelThread& thread, Counts& counts, const std::function<void()>& whileHeld) {
    const Clock::time_point end = Clock::now() + kHangGuard;
    while (Clock::now() < end) {
        const int asideBefore = counts.read(counts.steppedAside);
        const ModelThread::Hold hold(&thread);
        if (hold) {
            whileHeld();
            return true;
        }
        if (!counts.waitPast(counts.steppedAside, asideBefore))
            return false;
    }
    return false;
}

// Sets `*exited` when the thread that first touched it ends: its thread-local objects are destroyed as
// the thread exits, before a join of it returns.
struct ExitMark {
    std::atomic<bool>* exited = nullptr;
    ~ExitMark() {
        if (exited)
            exited->store(true);
    }
};

} // namespace

class TestModelThread : public QObject {
    Q_OBJECT
private slots:
    void viewsCatchUpBeforeMoreIsFed();
    void frameGetsTheLockFromABusyThread();
    void removedTaskNeverRunsAgain();
    void holdsNestOnOneThread();
    void nullThreadIsAlwaysHeld();
    void stopEndsABusyThread();
    void yieldsTheCpuToTheGuiThread();
};

// The views' task gets every slice while it has work; the feed gets one only once they have none.
void TestModelThread::viewsCatchUpBeforeMoreIsFed() {
    ModelThread thread;
    int viewsLeft = 0; // under the model's lock
    std::vector<int> viewsLeftWhenFed;
    std::promise<void> fedTwice;
    int feeds = 2;
    thread.addTask(ModelThread::Rank::Feed, [&](Clock::time_point) {
        viewsLeftWhenFed.push_back(viewsLeft);
        if (feeds == 0)
            return false;
        viewsLeft += 5; // what is fed must be binned
        if (--feeds == 0)
            fedTwice.set_value();
        return true;
    });
    thread.addTask(ModelThread::Rank::Views, [&](Clock::time_point) {
        if (viewsLeft == 0)
            return false;
        --viewsLeft;
        return true;
    });
    thread.wake();
    QVERIFY(fedTwice.get_future().wait_for(kHangGuard) == std::future_status::ready);
    // Read under the lock, waiting for the slice under way as a user's action does.
    const ModelThread::Hold hold(&thread, ModelThread::Hold::Mode::Wait);
    QVERIFY(hold);
    QVERIFY(viewsLeftWhenFed.size() >= 2);
    for (const int left : viewsLeftWhenFed)
        QCOMPARE(left, 0);
}

// A model thread with endless work still lets a frame in, runs no task while the frame holds the
// lock (it comes for its next slice and is kept out until the frame lets go), and goes on after it.
void TestModelThread::frameGetsTheLockFromABusyThread() {
    Counts counts;
    ModelThread thread(observe(counts));
    thread.addTask(ModelThread::Rank::Views, busy(counts));
    thread.wake();
    QVERIFY(counts.waitPast(counts.slices, 0));
    for (int frame = 0; frame < 20; ++frame) {
        // Read before the frame takes the lock: the thread is kept out only while the frame has it.
        const int keptOutBefore = counts.read(counts.keptOut);
        int heldAt = 0;
        QVERIFY(takeLikeAFrame(thread, counts, [&] {
            heldAt = counts.read(counts.slices);
            QCOMPARE(counts.read(counts.slicesEnded), heldAt); // no slice is under way
            QVERIFY(counts.waitPast(counts.keptOut, keptOutBefore));
            QCOMPARE(counts.read(counts.slices), heldAt);
        }));
        if (QTest::currentTestFailed())
            return;
        // The thread kept out gets the lock once the frame lets go (before the next frame, which
        // could otherwise take it again first and find the thread still waiting from this one).
        QVERIFY(counts.waitPast(counts.slices, heldAt));
    }
    QVERIFY(counts.read(counts.keptOut) >= 20);
}

// Once removeTask() returns, the task is not running and never runs again, though the thread goes on
// with the others.
void TestModelThread::removedTaskNeverRunsAgain() {
    Counts counts;
    ModelThread thread;
    const int id = thread.addTask(ModelThread::Rank::Views, busy(counts));
    thread.wake();
    QVERIFY(counts.waitPast(counts.slices, 0));
    thread.removeTask(id);
    const int removedAt = counts.read(counts.slices);
    QCOMPARE(counts.read(counts.slicesEnded), removedAt);
    // The feed ranks after the busy task: it runs only because that task is gone.
    std::promise<void> fed;
    bool once = true;
    thread.addTask(ModelThread::Rank::Feed, [&](Clock::time_point) {
        if (std::exchange(once, false))
            fed.set_value();
        return false;
    });
    thread.wake();
    QVERIFY(fed.get_future().wait_for(kHangGuard) == std::future_status::ready);
    QCOMPARE(counts.read(counts.slices), removedAt);
}

// A slot run with the lock held (a run's end) may take it again: holds on one thread nest.
void TestModelThread::holdsNestOnOneThread() {
    ModelThread thread;
    const ModelThread::Hold outer(&thread, ModelThread::Hold::Mode::Wait);
    QVERIFY(outer);
    const ModelThread::Hold inner(&thread);
    QVERIFY(inner);
    const ModelThread::Hold waited(&thread, ModelThread::Hold::Mode::Wait);
    QVERIFY(waited);
}

void TestModelThread::nullThreadIsAlwaysHeld() {
    const ModelThread::Hold hold(nullptr);
    QVERIFY(hold);
}

// stop() ends the slice under way and joins the thread; no task runs after it, though the thread
// is woken and given work, and a second stop (the destructor's, or one more before it) is harmless.
void TestModelThread::stopEndsABusyThread() {
    Counts counts;
    std::atomic<bool> exited{false};
    ModelThread thread;
    thread.addTask(ModelThread::Rank::Views, [&, work = busy(counts)](Clock::time_point deadline) {
        thread_local ExitMark mark;
        mark.exited = &exited;
        return work(deadline);
    });
    thread.wake();
    QVERIFY(counts.waitPast(counts.slices, 0));
    thread.stop();
    QVERIFY2(exited.load(), "stop() returned before the model thread ended");
    const int stoppedAt = counts.read(counts.slices);
    QCOMPARE(counts.read(counts.slicesEnded), stoppedAt); // the slice under way was finished
    // Nothing runs a task any more: the thread that would is gone, whatever is asked of it.
    bool ranAfterStop = false;
    thread.addTask(ModelThread::Rank::Feed, [&](Clock::time_point) {
        ranAfterStop = true;
        return false;
    });
    thread.wake();
    thread.stop();
    const ModelThread::Hold hold(&thread);
    QVERIFY(hold); // the lock is free: no slice is under way
    QVERIFY(!ranAfterStop);
    QCOMPARE(counts.read(counts.slices), stoppedAt);
}

// The model thread runs at nice 5 or lower priority (core/base/thread_priority.cpp), below a GUI thread of
// normal priority, which keeps its own: on Linux a nice value is a thread's, not the process's.
void TestModelThread::yieldsTheCpuToTheGuiThread() {
    const int guiNice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    ModelThread thread;
    std::promise<int> modelNice;
    bool asked = false; // under the model's lock
    thread.addTask(ModelThread::Rank::Views, [&](Clock::time_point) {
        if (!std::exchange(asked, true))
            modelNice.set_value(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())));
        return false;
    });
    thread.wake();
    std::future<int> nice = modelNice.get_future();
    QVERIFY(nice.wait_for(kHangGuard) == std::future_status::ready);
    QVERIFY(nice.get() >= std::max(guiNice, 5));
    QCOMPARE(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), guiNice);
}

QTEST_GUILESS_MAIN(TestModelThread)
#include "tst_model_thread.moc"

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
#include <future>
#include <thread>
#include <utility>
#include <vector>

using namespace la;

namespace {

using Clock = ModelThread::Clock;

// A hang guard only: every wait below ends as soon as what it waits for happens.
constexpr auto kHangGuard = std::chrono::seconds(30);

// A task with work without end: each slice spins until its deadline and counts itself.
ModelThread::Task busy(std::atomic<int>& slices) {
    return [&slices](Clock::time_point deadline) {
        slices.fetch_add(1);
        while (Clock::now() < deadline) {
        }
        return true;
    };
}

// Tries the lock as a frame does, again and again, until it holds it; false if that never happens.
bool takeLikeAFrame(ModelThread& thread, const std::function<void()>& whileHeld) {
    const Clock::time_point end = Clock::now() + kHangGuard;
    while (Clock::now() < end) {
        const ModelThread::Hold hold(&thread);
        if (hold) {
            whileHeld();
            return true;
        }
        std::this_thread::yield();
    }
    return false;
}

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
    // Drained: the feed's last call, once its work was binned.
    QVERIFY(takeLikeAFrame(thread, [&] {
        QVERIFY(viewsLeftWhenFed.size() >= 2);
        for (const int left : viewsLeftWhenFed)
            QCOMPARE(left, 0);
    }));
}

// A model thread with endless work still lets a frame in, and runs no task while the frame holds
// the lock.
void TestModelThread::frameGetsTheLockFromABusyThread() {
    ModelThread thread;
    std::atomic<int> slices{0};
    thread.addTask(ModelThread::Rank::Views, busy(slices));
    thread.wake();
    while (slices.load() == 0)
        std::this_thread::yield();
    for (int frame = 0; frame < 20; ++frame) {
        QVERIFY(takeLikeAFrame(thread, [&] {
            const int before = slices.load();
            const Clock::time_point end = Clock::now() + std::chrono::milliseconds(2);
            while (Clock::now() < end) {
            }
            QCOMPARE(slices.load(), before);
        }));
    }
    // And it goes on once the frames are done.
    const int after = slices.load();
    while (slices.load() == after)
        std::this_thread::yield();
}

// Once removeTask() returns, the task is not running and never runs again, though the thread goes on
// with the others.
void TestModelThread::removedTaskNeverRunsAgain() {
    ModelThread thread;
    std::atomic<int> slices{0};
    const int id = thread.addTask(ModelThread::Rank::Views, busy(slices));
    thread.wake();
    while (slices.load() == 0)
        std::this_thread::yield();
    thread.removeTask(id);
    const int removedAt = slices.load();
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
    QCOMPARE(slices.load(), removedAt);
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

// stop() ends the slice under way and joins (a hang here is ctest's timeout), and a second stop (the
// destructor's) is harmless.
void TestModelThread::stopEndsABusyThread() {
    std::atomic<int> slices{0};
    ModelThread thread;
    thread.addTask(ModelThread::Rank::Views, busy(slices));
    thread.wake();
    while (slices.load() == 0)
        std::this_thread::yield();
    thread.stop();
}

// The model thread runs at nice 5 or lower priority (core/thread_priority.cpp), below a GUI thread of
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

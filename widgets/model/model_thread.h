// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace la {

// The thread that keeps the views' model up to date beside the GUI thread: it feeds a live run's
// traces from the worker's mailbox and bins them for the views, so that the GUI thread only hands
// finished bins to its plots and draws them (docs/architecture.md, "The window's event loop").
//
// The model (the run traces and what the views have binned of them) has one lock; whoever touches
// it, on either thread, holds it. The model thread holds it for one slice of work at a time (under a
// millisecond). The GUI thread does not wait for it in a frame: it tries, and if the model thread has
// it, asks it to step aside after its slice and tries again a moment later. A model thread preempted
// while it holds the lock (by a build beside) then costs the GUI thread a late frame, not a stall.
class ModelThread {
public:
    using Clock = std::chrono::steady_clock;
    // One slice of work, with the lock held, until `deadline` at most; true while more is left.
    using Task = std::function<bool(Clock::time_point deadline)>;
    // Tasks of a lower rank go first: a task gets a slice only once every task ranked before it has
    // nothing left. The views bin what has arrived before more is fed, so every pane keeps up.
    enum class Rank { Views, Feed };

    // What the model thread did that a test waits for (tests/gui/tst_model_thread.cpp), told on the model
    // thread, outside the model's lock: a test waits on these instead of sleeping or spinning until
    // the thread has got there.
    enum class Moment {
        SteppedAside, // let go of the lock after its slice and waits for the GUI thread that asked for it
        KeptOut,      // found the lock held by the GUI thread when it came for its next slice
    };
    using Observer = std::function<void(Moment)>;

    explicit ModelThread(Observer observer = {});
    ~ModelThread();
    ModelThread(const ModelThread&) = delete;
    ModelThread& operator=(const ModelThread&) = delete;

    // Adds a task; it runs from the next wake() on. Waits for the lock.
    int addTask(Rank rank, Task task);
    // Once this returns the task is not running and never runs again. Waits for the lock.
    void removeTask(int id);
    // There may be work (new events, new bins asked for): the tasks run until none has more. Any
    // thread, never waits for the lock.
    void wake();
    // Finishes the slice under way and joins the thread; tasks never run again.
    void stop();

    // The model's lock as the GUI thread takes it. `Try` takes it only if it is free (a frame, a
    // tooltip: they come back later); `Wait` waits for the slice under way (a user's action: an
    // export, a save). Nested holds on the GUI thread are free. A null thread is a model without one
    // (an offscreen dashboard): always held.
    class Hold {
    public:
        enum class Mode { Try, Wait };
        explicit Hold(ModelThread* thread, Mode mode = Mode::Try);
        ~Hold();
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;
        explicit operator bool() const { return m_held; }

    private:
        ModelThread* m_thread;
        bool m_held = false;
    };

private:
    struct Entry {
        int id = 0;
        Rank rank = Rank::Views;
        Task task;
    };
    void run();
    // One slice of the first task that has work; false when none had.
    bool runSlice();
    void stepAsideIfAsked();

    std::recursive_mutex m_model; // the model's lock: the GUI thread's holds nest
    std::vector<Entry> m_tasks;   // under m_model, in rank order
    int m_nextId = 1;

    std::mutex m_control; // m_woken, m_stopping and the waits below
    std::condition_variable m_wakeup;
    std::condition_variable m_guiDone;
    bool m_woken = false;
    bool m_stopping = false;
    std::atomic<bool> m_guiWaiting{false}; // the GUI thread found the lock taken
    const Observer m_observer;             // set before the thread starts
    std::thread m_thread;
};

} // namespace la

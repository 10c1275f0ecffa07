// SPDX-License-Identifier: GPL-3.0-or-later
#include "model_thread.h"

#include "thread_priority.h"

#include <pthread.h>

#include <algorithm>
#include <utility>

namespace la {

namespace {
// One slice of work under the lock: short enough that a GUI thread that asked for the lock gets it
// within a frame's fraction, long enough that taking the lock costs nothing beside it.
constexpr auto kSlice = std::chrono::microseconds(500);
// How long the model thread waits for a GUI thread that asked for the lock and has not come back
// (it tries again on its next turn, a millisecond later unless it is busy drawing).
constexpr auto kStepAside = std::chrono::milliseconds(20);
} // namespace

ModelThread::ModelThread(Observer observer) : m_observer(std::move(observer)), m_thread([this] { run(); }) {
    pthread_setname_np(m_thread.native_handle(), "lookahead-model"); // in top, perf and gdb
}

ModelThread::~ModelThread() {
    stop();
}

int ModelThread::addTask(Rank rank, Task task) {
    const Hold hold(this, Hold::Mode::Wait);
    const int id = m_nextId++;
    const auto at =
        std::find_if(m_tasks.begin(), m_tasks.end(), [rank](const Entry& e) { return e.rank > rank; });
    m_tasks.insert(at, Entry{id, rank, std::move(task)});
    return id;
}

void ModelThread::removeTask(int id) {
    const Hold hold(this, Hold::Mode::Wait);
    std::erase_if(m_tasks, [id](const Entry& e) { return e.id == id; });
}

void ModelThread::wake() {
    {
        const std::lock_guard lock(m_control);
        m_woken = true;
    }
    m_wakeup.notify_one();
}

void ModelThread::stop() {
    {
        const std::lock_guard lock(m_control);
        m_stopping = true;
    }
    m_wakeup.notify_one();
    m_guiDone.notify_one();
    if (m_thread.joinable())
        m_thread.join();
}

void ModelThread::run() {
    yieldCpuToInteractiveThreads(); // the frames that show its work come first
    for (;;) {
        {
            std::unique_lock lock(m_control);
            m_wakeup.wait(lock, [this] { return m_woken || m_stopping; });
            if (m_stopping)
                return;
            m_woken = false;
        }
        while (runSlice()) {
            stepAsideIfAsked();
            const std::lock_guard lock(m_control);
            if (m_stopping)
                return;
        }
    }
}

bool ModelThread::runSlice() {
    if (!m_model.try_lock()) {
        if (m_observer)
            m_observer(Moment::KeptOut);
        m_model.lock();
    }
    const std::lock_guard lock(m_model, std::adopt_lock);
    const Clock::time_point deadline = Clock::now() + kSlice;
    for (Entry& entry : m_tasks) {
        if (entry.task(deadline))
            return true;
    }
    return false;
}

void ModelThread::stepAsideIfAsked() {
    if (!m_guiWaiting.load())
        return;
    if (m_observer)
        m_observer(Moment::SteppedAside);
    std::unique_lock lock(m_control);
    m_guiDone.wait_for(lock, kStepAside, [this] { return !m_guiWaiting.load() || m_stopping; });
    // A GUI thread that did not come back does not hold the next slice up again.
    m_guiWaiting = false;
}

ModelThread::Hold::Hold(ModelThread* thread, Mode mode) : m_thread(thread) {
    if (!m_thread) {
        m_held = true;
        return;
    }
    if (m_thread->m_model.try_lock()) {
        m_held = true;
        return;
    }
    m_thread->m_guiWaiting = true;
    if (mode == Mode::Wait) {
        m_thread->m_model.lock();
        m_held = true;
    }
}

ModelThread::Hold::~Hold() {
    if (!m_thread || !m_held)
        return;
    m_thread->m_model.unlock();
    if (m_thread->m_guiWaiting.exchange(false)) {
        const std::lock_guard lock(m_thread->m_control);
        m_thread->m_guiDone.notify_one();
    }
}

} // namespace la

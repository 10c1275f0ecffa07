// SPDX-License-Identifier: GPL-3.0-or-later
#include "worker_pool.h"

#include "scan_file.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <system_error>

namespace la {

WorkerPool::WorkerPool(const IoWorkerSettings& settings, const RunClock& clock)
    : m_settings(settings.clamped()), m_clock(clock), m_launcher(m_settings) {
    // The launcher starts io_min_workers at once, as the postmaster does.
    m_launcherThread = std::thread([this] { launcherMain(); });
}

WorkerPool::~WorkerPool() {
    {
        // Reads still queued are dropped; reads a worker has begun finish before it is joined.
        const std::lock_guard lock(m_mutex);
        m_stop = true;
        m_queue.clear();
        for (Worker& worker : m_workers)
            worker.latch.notify_all();
        m_launcherWake.notify_all();
    }
    m_launcherThread.join();
    for (Worker& worker : m_workers)
        if (worker.thread.joinable())
            worker.thread.join();
}

void WorkerPool::submit(PendingRead& read) {
    std::unique_lock lock(m_mutex);
    if (m_queue.size() >= static_cast<std::size_t>(kIoWorkerQueueEntries)) {
        // The queue is full: the submitter performs the read itself.
        lock.unlock();
        perform(read);
        return;
    }
    m_queue.push_back(&read);
    // One worker is woken for it, the lowest idle one; it wakes the next if more are queued.
    if (const int worker = lowestIdle(-1); worker >= 0) {
        m_workers[worker].idle = false;
        wake(worker);
    }
}

bool WorkerPool::awaitCompletion(PendingRead& read) {
    std::unique_lock lock(m_mutex);
    if (read.done)
        return false;
    m_done.wait(lock, [&] { return read.done; });
    return true;
}

IoWorkerCounts WorkerPool::counts() const {
    const std::lock_guard lock(m_mutex);
    return {m_settings.startWorkers(), m_live, m_peak};
}

int WorkerPool::waitForWorkers(const std::function<bool(int)>& until, std::chrono::milliseconds limit) const {
    std::unique_lock lock(m_mutex);
    m_sizeChanged.wait_for(lock, limit, [&] { return until(m_live); });
    return m_live;
}

void WorkerPool::perform(PendingRead& read) {
    const std::int64_t result = readFully(read.fd, read.buffer, read.length(), read.offset());
    const std::int64_t completed = m_clock.now();
    {
        const std::lock_guard lock(m_mutex);
        read.result = result;
        read.completedNs = completed;
        read.done = true;
    }
    m_done.notify_one();
}

void WorkerPool::workerMain(int id) {
    std::unique_lock lock(m_mutex);
    Worker& self = m_workers[id];
    self.live = true;
    ++m_live;
    m_peak = std::max(m_peak, m_live);
    poolChanged(id);
    WakeupRatio ratio;
    using Clock = std::chrono::steady_clock;
    constexpr Clock::time_point kNoTimeout = Clock::time_point::max();
    Clock::time_point idleUntil = kNoTimeout; // while idle and allowed to time out
    while (!m_stop) {
        if (!m_queue.empty()) {
            PendingRead* read = m_queue.front();
            m_queue.pop_front();
            self.idle = false;
            if (ratio.mayWakePeer() && !m_queue.empty()) {
                if (const int peer = lowestIdle(id); peer >= 0) {
                    m_workers[peer].idle = false;
                    wake(peer);
                } else if (wantsAnotherWorker(static_cast<int>(m_queue.size()), m_live)) {
                    m_launcher.requestGrow(m_live, m_clock.now());
                    m_launcherWake.notify_one();
                }
            }
            ratio.tookRead();
            idleUntil = kNoTimeout;
            lock.unlock();
            perform(*read);
            lock.lock();
            continue;
        }
        self.idle = true;
        m_launcher.cancelGrow();
        const auto woken = [&] { return self.woken || m_stop; };
        if (mayTimeOut(id, highestLive(), m_settings)) {
            if (idleUntil == kNoTimeout)
                idleUntil = Clock::now() + std::chrono::nanoseconds(m_settings.idleTimeoutNs);
            if (!self.latch.wait_until(lock, idleUntil, woken)) {
                if (mayTimeOut(id, highestLive(), m_settings) && m_queue.empty())
                    break;
                continue;
            }
        } else {
            idleUntil = kNoTimeout;
            self.latch.wait(lock, woken);
        }
        if (self.woken) {
            self.woken = false;
            ratio.wokenUp();
        }
    }
    self.idle = false;
    self.live = false;
    self.exited = true;
    --m_live;
    poolChanged(id);
    m_launcherWake.notify_one();
}

void WorkerPool::launcherMain() {
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
        joinExited(lock);
        if (m_stop)
            break;
        const std::optional<std::int64_t> at = m_launcher.scheduledAt(m_launched);
        if (!at) {
            m_launcherWake.wait(lock);
            continue;
        }
        const std::int64_t now = m_clock.now();
        if (*at > now) {
            m_launcherWake.wait_for(lock, std::chrono::nanoseconds(*at - now));
            continue;
        }
        if (m_launcher.launchNow(m_launched, now))
            launch();
    }
}

void WorkerPool::launch() {
    int slot = 0;
    while (m_workers[slot].launched)
        ++slot;
    try {
        m_workers[slot].thread = std::thread([this, slot] { workerMain(slot); });
    } catch (const std::system_error&) {
        return; // no thread for now: the launcher tries again at its next launch time
    }
    m_workers[slot].launched = true;
    ++m_launched;
}

void WorkerPool::joinExited(std::unique_lock<std::mutex>& lock) {
    for (Worker& worker : m_workers) {
        if (!worker.exited)
            continue;
        std::thread ended = std::move(worker.thread);
        worker.exited = false;
        worker.launched = false;
        --m_launched;
        lock.unlock();
        ended.join();
        lock.lock();
    }
}

void WorkerPool::wake(int id) {
    m_workers[id].woken = true;
    m_workers[id].latch.notify_one();
}

int WorkerPool::lowestIdle(int above) const {
    for (int w = above + 1; w < kMaxIoWorkers; ++w)
        if (m_workers[w].live && m_workers[w].idle)
            return w;
    return -1;
}

int WorkerPool::highestLive() const {
    for (int w = kMaxIoWorkers - 1; w >= 0; --w)
        if (m_workers[w].live)
            return w;
    return -1;
}

void WorkerPool::poolChanged(int changed) {
    // Every other worker learns of it: the new highest may now time out, the old one no longer.
    for (int w = 0; w < kMaxIoWorkers; ++w)
        if (w != changed && m_workers[w].live)
            wake(w);
    m_sizeChanged.notify_all();
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io_worker_rules.h"
#include "pending_read.h"
#include "run_clock.h"

#include <array>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace la {

// PostgreSQL's io_method=worker: threads take reads from one queue and perform them with pread, one
// read each at a time, so at most as many reads as there are workers are at the device. The pool
// follows PostgreSQL's rules on the real clock (io_worker_rules.h, docs/real-io.md): PG19's grows
// from io_min_workers while reads queue with no idle worker, one launch per interval, and its
// highest worker exits after the idle timeout; PG18's is fixed.
class WorkerPool final : public AsyncReads {
public:
    WorkerPool(const IoWorkerSettings& settings, const RunClock& clock);
    ~WorkerPool() override;
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void submit(PendingRead& read) override;
    bool awaitCompletion(PendingRead& read) override;

    // The pool's size: at the start, now (workers taking reads), and the most at once.
    IoWorkerCounts counts() const;
    // Blocks until `until(live workers)` holds, or for `limit` at most; returns the live workers then.
    // For tests, which wait on the pool's changes rather than sleep.
    int waitForWorkers(const std::function<bool(int)>& until, std::chrono::milliseconds limit) const;

private:
    struct Worker {
        std::thread thread;
        std::condition_variable latch; // woken: reads queued, the pool changed, or stop
        bool launched = false;         // its thread exists (it may not have registered yet)
        bool live = false;             // registered: takes reads
        bool idle = false;             // may be chosen to take a read
        bool woken = false;
        bool exited = false; // its thread has ended and waits to be joined
    };

    void workerMain(int id);
    void launcherMain();
    // With the lock held.
    void launch();
    void joinExited(std::unique_lock<std::mutex>& lock);
    void wake(int id);
    int lowestIdle(int above) const;
    int highestLive() const;
    void poolChanged(int changed);
    void perform(PendingRead& read);

    IoWorkerSettings m_settings;
    const RunClock& m_clock;
    mutable std::mutex m_mutex;
    std::condition_variable m_done;                // a read completed
    mutable std::condition_variable m_sizeChanged; // a worker registered or exited
    std::condition_variable m_launcherWake;        // a request for a worker, a worker exited, or stop
    std::deque<PendingRead*> m_queue;
    IoWorkerLauncher m_launcher;
    std::array<Worker, kMaxIoWorkers> m_workers;
    int m_launched = 0;
    int m_live = 0;
    int m_peak = 0;
    bool m_stop = false;
    std::thread m_launcherThread; // last, so everything it uses exists before it starts
};

} // namespace la

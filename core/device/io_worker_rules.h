// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace la {

// PostgreSQL's io_method=worker pool, as the simulated device and the real worker backend both
// run it: the rules are docs/mechanics.md's "I/O workers", each kept here once.

inline constexpr int kMaxIoWorkers = 32; // MAX_IO_WORKERS: io_min_workers and io_max_workers go up to it
// The shared submission queue has 64 slots; one stays empty to tell a full ring from an empty one.
inline constexpr int kIoWorkerQueueEntries = 63;

struct IoWorkerSettings {
    int minWorkers = 2;                          // io_min_workers (PG19)
    int maxWorkers = 8;                          // io_max_workers (PG19)
    std::int64_t launchIntervalNs = 100'000'000; // io_worker_launch_interval, 100 ms
    std::int64_t idleTimeoutNs = 60'000'000'000; // io_worker_idle_timeout, 60 s

    // PostgreSQL 18: io_workers workers, started with the server, never more and never fewer.
    static IoWorkerSettings fixed(int workers) { return {workers, workers, 0, 0}; }
    // The pool starts at io_min_workers, but never above io_max_workers (the maximum wins).
    int startWorkers() const { return minWorkers < maxWorkers ? minWorkers : maxWorkers; }
    bool elastic() const { return maxWorkers > startWorkers(); }
    // Within 1..kMaxIoWorkers, as PostgreSQL's settings are.
    IoWorkerSettings clamped() const;
};

// The pool's size over a run, for the summary: at its start, at its end and the most at once.
struct IoWorkerCounts {
    int start = 0;
    int end = 0;
    int peak = 0;
};

// A worker that has just taken a read asks for one more worker when more reads wait than there are
// workers and none above it is idle to take them (it would have woken that one instead).
inline bool wantsAnotherWorker(int queuedAfterTake, int liveWorkers) {
    return queuedAfterTake > liveWorkers;
}

// Only the highest-numbered worker may time out, and only above io_min_workers, so the pool shrinks
// from the top, one worker at a time, and never below the minimum.
inline bool mayTimeOut(int worker, int highestWorker, const IoWorkerSettings& settings) {
    return settings.elastic() && worker >= settings.startWorkers() && worker == highestWorker;
}

// The postmaster's side: a worker's request for one more worker, and when one is launched. At most
// one launch per launch interval; a request that work ran out on before its launch time is dropped
// there, but still uses up that launch time.
class IoWorkerLauncher {
public:
    explicit IoWorkerLauncher(const IoWorkerSettings& settings) : m_settings(settings) {}

    // A worker asks for one more at `now`.
    void requestGrow(int liveWorkers, std::int64_t now);
    // A worker found the queue empty.
    void cancelGrow() { m_grow = false; }
    // When the launcher acts next, given the workers launched so far; nothing if it has nothing to do.
    std::optional<std::int64_t> scheduledAt(int launched) const;
    // At a scheduled time: true to launch one worker now; false if the request was dropped.
    bool launchNow(int launched, std::int64_t now);

private:
    IoWorkerSettings m_settings;
    bool m_grow = false;       // a request stands
    bool m_signalSent = false; // the launcher has been told, and not yet dropped the request
    std::int64_t m_signalAt = 0;
    // The server has been up for a while when a scan starts: the first request is served at once.
    std::int64_t m_nextLaunch = std::numeric_limits<std::int64_t>::min();
};

// How often a worker is woken for nothing (another worker took the read first) against how often it
// took a read, over a short memory. A worker that is woken for nothing more often than it works
// wakes no peer: the wake-up chain stops where wake-ups stop being useful.
class WakeupRatio {
public:
    void wokenUp() { count(m_wakeups); }
    void tookRead() { count(m_reads); }
    bool mayWakePeer() const { return m_wakeups <= m_reads; }

private:
    void count(int& counter);
    int m_wakeups = 0;
    int m_reads = 0;
};

} // namespace la

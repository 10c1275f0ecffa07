// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io_worker_rules.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>

namespace la {

// The I/O workers of io_method=worker on the simulated device's virtual clock (docs/simulated-device.md,
// "I/O workers"). Reads wait in the shared queue until a worker takes one; a worker does one read at
// a time. The pool grows and shrinks by PostgreSQL's rules (io_worker_rules.h).
//
// Time moves only when the device asks: advance() runs the workers' events up to a time. Reads
// submitted at one instant are all queued before any worker looks at them, as a look-ahead's batch is.
class SimWorkers {
public:
    // `serve(job, at)` performs the read `job` a worker took at `at` and returns when it completes.
    using Serve = std::function<std::int64_t(std::uint64_t job, std::int64_t at)>;

    SimWorkers(const IoWorkerSettings& settings, std::int64_t launchDelayNs, Serve serve);

    // Queues read `job` at `at`; false if the queue is full (the submitter then reads it itself).
    bool submit(std::uint64_t job, std::int64_t at);
    // Runs every event before `until`, and those at `until` too if `inclusive`.
    void advance(std::int64_t until, bool inclusive);
    // Runs events until a worker has taken `job` (which must be queued).
    void advanceUntilTaken(std::uint64_t job);

    int live() const { return m_live; }
    IoWorkerCounts counts() const { return {m_settings.startWorkers(), m_live, m_peak}; }

private:
    enum class State : std::uint8_t { Absent, Starting, Idle, Busy };
    struct Worker {
        State state = State::Absent;
        std::int64_t at = 0;                   // Starting: ready; Busy: its read completes
        std::optional<std::int64_t> timeoutAt; // Idle and allowed to time out
    };
    struct Queued {
        std::uint64_t job = 0;
        std::int64_t at = 0;
    };
    enum class Event : std::uint8_t { None, Free, Ready, Take, Launch, Timeout };

    // The earliest event and its time; None if there is nothing left to do.
    Event next(std::int64_t& when, int& worker) const;
    void run(Event event, std::int64_t when, int worker);
    // Worker `w` looks at the queue at `now`: takes the next read, or goes idle.
    void look(int w, std::int64_t now);
    void take(int w, std::int64_t now);
    int lowestIdle() const;
    int highestLive() const;
    // The pool changed size: every idle worker learns whether it may now time out.
    void poolChanged(std::int64_t now);

    IoWorkerSettings m_settings;
    std::int64_t m_launchDelayNs;
    Serve m_serve;
    IoWorkerLauncher m_launcher;
    std::array<Worker, kMaxIoWorkers> m_workers{}; // numbered below io_max_workers, the lowest free first
    int m_live = 0;                                // registered: taking reads
    int m_launched = 0;                            // live or starting, as the launcher counts them
    int m_peak = 0;
    std::array<Queued, kIoWorkerQueueEntries + 1> m_queue{};
    int m_queueHead = 0, m_queueCount = 0;
    std::uint64_t m_lastTaken = 0; // jobs are taken in submission order
    bool m_anyTaken = false;
    std::int64_t m_clock = 0; // the time of the last event run
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim_workers.h"

#include <algorithm>
#include <stdexcept>

namespace la {

SimWorkers::SimWorkers(const IoWorkerSettings& settings, std::int64_t launchDelayNs, Serve serve)
    : m_settings(settings.clamped()), m_launchDelayNs(launchDelayNs), m_serve(std::move(serve)),
      m_launcher(m_settings) {
    // The scan starts on a running server: its io_min_workers are up and idle.
    m_live = m_launched = m_peak = m_settings.startWorkers();
    for (int w = 0; w < m_live; ++w)
        m_workers[w].state = State::Idle;
    poolChanged(0);
}

bool SimWorkers::submit(std::uint64_t job, std::int64_t at) {
    if (m_queueCount == kIoWorkerQueueEntries)
        return false;
    m_queue[(m_queueHead + m_queueCount) % m_queue.size()] = {job, at};
    ++m_queueCount;
    return true;
}

void SimWorkers::advance(std::int64_t until, bool inclusive) {
    for (;;) {
        std::int64_t when = 0;
        int worker = -1;
        const Event event = next(when, worker);
        if (event == Event::None || when > until || (when == until && !inclusive))
            return;
        run(event, when, worker);
    }
}

void SimWorkers::advanceUntilTaken(std::uint64_t job) {
    while (!m_anyTaken || m_lastTaken < job) {
        std::int64_t when = 0;
        int worker = -1;
        const Event event = next(when, worker);
        if (event == Event::None)
            throw std::logic_error("simulated I/O workers: a queued read that no worker takes");
        run(event, when, worker);
    }
}

// At one time: reads complete first, so their workers look at the queue before an idle one is woken;
// then new workers join; then idle workers take what is queued; then the launcher and the timeouts.
SimWorkers::Event SimWorkers::next(std::int64_t& when, int& worker) const {
    Event best = Event::None;
    const auto consider = [&](Event event, std::int64_t at, int w) {
        if (best == Event::None || at < when) {
            best = event;
            when = at;
            worker = w;
        }
    };
    for (int w = 0; w < m_settings.maxWorkers; ++w) {
        const Worker& state = m_workers[w];
        if (state.state == State::Busy)
            consider(Event::Free, state.at, w);
        else if (state.state == State::Starting)
            consider(Event::Ready, state.at, w);
    }
    // An idle worker with reads queued was woken by the submission, at the time of that submission.
    if (m_queueCount > 0)
        if (const int w = lowestIdle(); w >= 0)
            consider(Event::Take, m_queue[m_queueHead].at, w);
    if (const std::optional<std::int64_t> at = m_launcher.scheduledAt(m_launched))
        consider(Event::Launch, std::max(*at, m_clock), -1); // never before what already ran
    for (int w = 0; w < m_settings.maxWorkers; ++w)
        if (m_workers[w].state == State::Idle && m_workers[w].timeoutAt)
            consider(Event::Timeout, *m_workers[w].timeoutAt, w);
    return best;
}

void SimWorkers::run(Event event, std::int64_t when, int worker) {
    m_clock = when;
    switch (event) {
    case Event::Free:
        look(worker, when);
        break;
    case Event::Ready:
        ++m_live;
        m_peak = std::max(m_peak, m_live);
        m_workers[worker].state = State::Idle;
        poolChanged(when);
        look(worker, when);
        break;
    case Event::Take:
        take(worker, when);
        break;
    case Event::Launch: {
        if (!m_launcher.launchNow(m_launched, when))
            break;
        int slot = 0;
        while (m_workers[slot].state != State::Absent)
            ++slot;
        m_workers[slot] = {State::Starting, when + m_launchDelayNs, std::nullopt};
        ++m_launched;
        break;
    }
    case Event::Timeout:
        m_workers[worker] = {};
        --m_live;
        --m_launched;
        poolChanged(when);
        break;
    case Event::None:
        break;
    }
}

void SimWorkers::look(int w, std::int64_t now) {
    if (m_queueCount > 0) {
        take(w, now);
        return;
    }
    Worker& worker = m_workers[w];
    worker.state = State::Idle;
    m_launcher.cancelGrow();
    worker.timeoutAt.reset();
    if (mayTimeOut(w, highestLive(), m_settings))
        worker.timeoutAt = now + m_settings.idleTimeoutNs;
}

void SimWorkers::take(int w, std::int64_t now) {
    const Queued read = m_queue[m_queueHead];
    m_queueHead = (m_queueHead + 1) % static_cast<int>(m_queue.size());
    --m_queueCount;
    // Idle workers above this one are woken next (they take the rest at this same time); with none,
    // a deep queue asks for one more worker.
    bool idleAbove = false;
    for (int above = w + 1; above < m_settings.maxWorkers; ++above)
        idleAbove = idleAbove || m_workers[above].state == State::Idle;
    if (m_queueCount > 0 && !idleAbove && wantsAnotherWorker(m_queueCount, m_live))
        m_launcher.requestGrow(m_live, now);
    m_workers[w] = {State::Busy, m_serve(read.job, now), std::nullopt};
    m_lastTaken = read.job;
    m_anyTaken = true;
}

int SimWorkers::lowestIdle() const {
    for (int w = 0; w < m_settings.maxWorkers; ++w)
        if (m_workers[w].state == State::Idle)
            return w;
    return -1;
}

int SimWorkers::highestLive() const {
    for (int w = m_settings.maxWorkers - 1; w >= 0; --w)
        if (m_workers[w].state == State::Idle || m_workers[w].state == State::Busy)
            return w;
    return -1;
}

void SimWorkers::poolChanged(std::int64_t now) {
    const int highest = highestLive();
    for (int w = 0; w < m_settings.maxWorkers; ++w) {
        Worker& worker = m_workers[w];
        if (worker.state != State::Idle)
            continue;
        if (!mayTimeOut(w, highest, m_settings))
            worker.timeoutAt.reset();
        else if (!worker.timeoutAt)
            worker.timeoutAt = now + m_settings.idleTimeoutNs; // promoted: its idle time counts from now
    }
}

} // namespace la

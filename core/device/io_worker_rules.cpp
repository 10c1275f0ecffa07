// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_worker_rules.h"

#include <algorithm>

namespace la {

IoWorkerSettings IoWorkerSettings::clamped() const {
    IoWorkerSettings settings = *this;
    settings.minWorkers = std::clamp(minWorkers, 1, kMaxIoWorkers);
    settings.maxWorkers = std::clamp(maxWorkers, 1, kMaxIoWorkers);
    return settings;
}

void IoWorkerLauncher::requestGrow(int liveWorkers, std::int64_t now) {
    // A pool at its maximum, or a request already standing, needs no new one.
    if (liveWorkers >= m_settings.maxWorkers || m_grow)
        return;
    m_grow = true;
    // The launcher is told once; until it acts, requests only set the flag again.
    if (m_signalSent)
        return;
    m_signalSent = true;
    m_signalAt = now;
}

std::optional<std::int64_t> IoWorkerLauncher::scheduledAt(int launched) const {
    if (launched >= m_settings.maxWorkers)
        return std::nullopt;
    if (launched < m_settings.startWorkers())
        return std::numeric_limits<std::int64_t>::min(); // below the minimum: at once
    if (!m_signalSent)
        return std::nullopt;
    return std::max(m_signalAt, m_nextLaunch);
}

bool IoWorkerLauncher::launchNow(int launched, std::int64_t now) {
    // The next launch time follows the last one, so the launcher's other work does not stretch the
    // interval; after a quiet period it starts again from now.
    const std::int64_t interval = m_settings.launchIntervalNs;
    m_nextLaunch = m_nextLaunch <= now - interval ? now + interval : m_nextLaunch + interval;
    if (launched >= m_settings.startWorkers() && !m_grow) {
        m_signalSent = false;
        return false;
    }
    return true;
}

void WakeupRatio::count(int& counter) {
    // Halving both at a small count keeps only the last few events.
    constexpr int kSaturate = 4;
    if (++counter == kSaturate) {
        m_wakeups /= 2;
        m_reads /= 2;
    }
}

} // namespace la

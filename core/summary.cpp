// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary.h"

#include <algorithm>

namespace la {

void SummaryBuilder::onEvents(std::span<const Event> batch) {
    // The time integral, the per-buffer sums and the wait being timed live in locals for the batch:
    // through the members every event would wait on the previous event's store (and reload the
    // int64 ones after each store into m_kinds, which may alias them). The per-buffer sums are whole
    // numbers, so integer sums give exactly the doubles the per-event sums gave.
    double integral = m_distanceTimeIntegral;
    std::int64_t lastTime = m_lastTime;
    // Signed: a distance converts to a double in one instruction, where an unsigned 64-bit value
    // needs a test for the top bit first.
    auto lastDistance = static_cast<std::int64_t>(m_lastDistance);
    std::uint64_t distanceSum = m_distanceSum, pinnedSum = m_pinnedSum, inFlightSum = m_inFlightSum;
    std::uint64_t le2 = m_le2;
    std::uint16_t distanceMax = m_distanceMax;
    std::uint32_t waitIo = m_waitIo;
    std::int64_t waitStart = m_waitStart, waitNs = m_s.waitNs;
    for (const Event& event : batch) {
        if (event.time_ns > lastTime) {
            integral += static_cast<double>(lastDistance) * static_cast<double>(event.time_ns - lastTime);
            lastTime = event.time_ns;
        }
        lastDistance = event.distance;
        // Most kinds are only counted: one table increment, and a switch rather than a chain of
        // compares for the four kinds that carry figures.
        ++m_kinds[static_cast<std::uint8_t>(event.kind)];
        switch (event.kind) {
        case EventKind::Consumed:
            distanceSum += event.distance;
            pinnedSum += event.pinned;
            inFlightSum += event.in_flight;
            distanceMax = std::max(distanceMax, event.distance);
            le2 += event.distance <= 2 ? 1 : 0;
            m_collapses.onConsumed(event);
            break;
        case EventKind::ReadStarted:
            ++m_readsBySize[event.nblocks];
            break;
        case EventKind::Waited:
            waitIo = event.io_id;
            waitStart = event.time_ns;
            break;
        case EventKind::ReadCompleted:
            if (waitStart >= 0 && event.io_id == waitIo) {
                waitNs += event.time_ns - waitStart;
                waitStart = -1;
            }
            break;
        default:
            break;
        }
    }
    m_distanceTimeIntegral = integral;
    m_lastTime = lastTime;
    m_lastDistance = static_cast<std::uint64_t>(lastDistance);
    m_distanceSum = distanceSum;
    m_pinnedSum = pinnedSum;
    m_inFlightSum = inFlightSum;
    m_le2 = le2;
    m_distanceMax = distanceMax;
    m_waitIo = waitIo;
    m_waitStart = waitStart;
    m_s.waitNs = waitNs;
}

std::uint64_t SummaryBuilder::count(EventKind kind) const {
    return m_kinds[static_cast<std::uint8_t>(kind)];
}

void SummaryBuilder::finish(RunSummary& summary) {
    m_collapses.finish();
    const std::uint64_t blocks = count(EventKind::Consumed);
    const double n = blocks > 0 ? static_cast<double>(blocks) : 1.0;
    summary.blocks = blocks;
    summary.hits = count(EventKind::Hit);
    summary.misses = count(EventKind::Miss);
    summary.ios = count(EventKind::ReadStarted);
    summary.ioSizeHist.clear();
    for (std::size_t size = 0; size < m_readsBySize.size(); ++size)
        if (m_readsBySize[size] > 0)
            summary.ioSizeHist[static_cast<int>(size)] = m_readsBySize[size];
    summary.waits = count(EventKind::Waited);
    summary.waitNs = m_s.waitNs;
    summary.resets = count(EventKind::Reset);
    summary.runtimeNs = m_lastTime;
    summary.distanceMean = static_cast<double>(m_distanceSum) / n;
    summary.distanceMax = m_distanceMax;
    summary.fracDistanceLe2 = static_cast<double>(m_le2) / n;
    summary.pinnedMean = static_cast<double>(m_pinnedSum) / n;
    summary.inFlightMean = static_cast<double>(m_inFlightSum) / n;
    summary.distanceTimeMean =
        m_lastTime > 0 ? m_distanceTimeIntegral / static_cast<double>(m_lastTime) : 0.0;
    summary.collapseIntervals = m_collapses.intervals();
}

} // namespace la

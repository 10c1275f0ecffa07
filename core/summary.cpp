// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary.h"

#include <algorithm>

namespace la {

void SummaryBuilder::onEvents(std::span<const Event> batch) {
    for (const Event& event : batch) {
        if (event.time_ns > m_lastTime) {
            m_distanceTimeIntegral +=
                static_cast<double>(m_lastDistance) * static_cast<double>(event.time_ns - m_lastTime);
            m_lastTime = event.time_ns;
        }
        m_lastDistance = event.distance;
        switch (event.kind) {
        case EventKind::Hit:
            ++m_s.hits;
            break;
        case EventKind::Miss:
            ++m_s.misses;
            break;
        case EventKind::ReadStarted:
            ++m_s.ios;
            if (event.nblocks >= m_readsBySize.size())
                m_readsBySize.resize(event.nblocks + 1);
            ++m_readsBySize[event.nblocks];
            break;
        case EventKind::Waited:
            ++m_s.waits;
            m_waitIo = event.io_id;
            m_waitStart = event.time_ns;
            break;
        case EventKind::ReadCompleted:
            if (m_waitStart >= 0 && event.io_id == m_waitIo) {
                m_s.waitNs += event.time_ns - m_waitStart;
                m_waitStart = -1;
            }
            break;
        case EventKind::Consumed:
            onConsumed(event);
            break;
        case EventKind::Reset:
            ++m_s.resets;
            break;
        default:
            break;
        }
    }
}

void SummaryBuilder::onConsumed(const Event& event) {
    ++m_s.blocks;
    m_distanceSum += event.distance;
    m_pinnedSum += event.pinned;
    m_inFlightSum += event.in_flight;
    m_s.distanceMax = std::max<int>(m_s.distanceMax, event.distance);
    if (event.distance <= 2)
        ++m_le2;

    m_collapses.onConsumed(event);
}

void SummaryBuilder::finish(RunSummary& summary) {
    m_collapses.finish();
    const double n = m_s.blocks > 0 ? static_cast<double>(m_s.blocks) : 1.0;
    summary.blocks = m_s.blocks;
    summary.hits = m_s.hits;
    summary.misses = m_s.misses;
    summary.ios = m_s.ios;
    summary.ioSizeHist.clear();
    for (std::size_t size = 0; size < m_readsBySize.size(); ++size)
        if (m_readsBySize[size] > 0)
            summary.ioSizeHist[static_cast<int>(size)] = m_readsBySize[size];
    summary.waits = m_s.waits;
    summary.waitNs = m_s.waitNs;
    summary.resets = m_s.resets;
    summary.runtimeNs = m_lastTime;
    summary.distanceMean = m_distanceSum / n;
    summary.distanceMax = m_s.distanceMax;
    summary.fracDistanceLe2 = static_cast<double>(m_le2) / n;
    summary.pinnedMean = m_pinnedSum / n;
    summary.inFlightMean = m_inFlightSum / n;
    summary.distanceTimeMean =
        m_lastTime > 0 ? m_distanceTimeIntegral / static_cast<double>(m_lastTime) : 0.0;
    summary.collapseIntervals = m_collapses.intervals();
}

} // namespace la

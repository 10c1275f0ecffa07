// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary.h"

#include <algorithm>

namespace la {

namespace {
// Misses further apart than this are not "misses that keep coming" (below 1% of blocks).
constexpr std::uint64_t kMaxMissGap = 100;
} // namespace

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

    // Collapse: misses keep coming while the distance never gets above 2. After the end of the
    // stream (distance 0) nothing is being decided, so those buffers neither extend nor break it.
    if (event.distance > 2) {
        closeCollapse();
        return;
    }
    if (event.distance == 0 || !(event.flags & event_flag::miss))
        return;
    if (m_collapseMisses > 0 && event.position - m_collapseLast > kMaxMissGap)
        closeCollapse();
    if (m_collapseMisses == 0)
        m_collapseFirst = event.position;
    m_collapseLast = event.position;
    ++m_collapseMisses;
}

void SummaryBuilder::closeCollapse() {
    if (m_collapseMisses == 0)
        return;
    if (m_collapseMisses >= static_cast<std::uint64_t>(m_collapseWindow))
        m_s.collapseIntervals.emplace_back(m_collapseFirst, m_collapseLast);
    m_collapseMisses = 0;
}

void SummaryBuilder::finish(RunSummary& summary) {
    closeCollapse();
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
    summary.collapseIntervals = m_s.collapseIntervals;
}

} // namespace la

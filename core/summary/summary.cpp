// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary.h"

#include <algorithm>

namespace la {

void SummaryBuilder::onEvents(std::span<const Event> batch) {
    Totals totals = m_totals;
    for (const Event& event : batch)
        accumulate(totals, event);
    m_totals = totals;
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
    summary.waitNs = m_totals.waitNs;
    summary.resets = count(EventKind::Reset);
    summary.distanceAfterResetMean.reset();
    if (summary.resets > 0)
        summary.distanceAfterResetMean =
            static_cast<double>(m_totals.resetDistanceSum) / static_cast<double>(summary.resets);
    summary.reversedRanges = m_reversedRanges;
    summary.runtimeNs = m_totals.lastTime;
    summary.distanceMean = static_cast<double>(m_totals.distanceSum) / n;
    summary.distanceMax = m_totals.distanceMax;
    summary.blocksAfterEnd = m_totals.atZero;
    summary.fracDistanceLe2 = static_cast<double>(m_totals.le2) / n;
    summary.pinnedMean = static_cast<double>(m_totals.pinnedSum) / n;
    summary.inFlightMean = static_cast<double>(m_totals.inFlightSum) / n;
    summary.distanceTimeMean =
        m_totals.lastTime > 0 ? m_totals.distanceTimeIntegral / static_cast<double>(m_totals.lastTime) : 0.0;
    summary.collapseIntervals = m_collapses.intervals();
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "adaptive_policy.h"

#include <algorithm>
#include <cmath>

namespace la {

namespace {
constexpr double kEwma = 0.125;
constexpr double kMissWindow = 256.0;
constexpr double kCachedMissRate = 0.002; // below this the data is effectively all cached
constexpr double kHeadroom = 1.25;
} // namespace

void AdaptivePolicy::start(Distances& d, const StreamLimits& limits, bool full) {
    d = startingDistances(limits, full, true);
}

int AdaptivePolicy::target(const Distances& d, const StreamLimits& limits) const {
    if (m_latencyNs <= 0.0)
        return 0; // nothing measured: ramp like PostgreSQL until it is
    const double gap = std::max(m_blockGapNs, 1.0);
    const double blocks = std::ceil(kHeadroom * m_latencyNs / gap) + d.combine;
    return static_cast<int>(std::clamp(blocks, 1.0, static_cast<double>(limits.maxPinned)));
}

void AdaptivePolicy::observeBlocks(int misses, int blocks) {
    for (int i = 0; i < blocks; ++i)
        m_missRate += ((i < misses ? 1.0 : 0.0) - m_missRate) / kMissWindow;
}

void AdaptivePolicy::onReadStarted(int missBlocks) {
    observeBlocks(missBlocks, missBlocks);
}

void AdaptivePolicy::onNoIo(Distances& d, const StreamLimits&, int iosInProgress) {
    observeBlocks(0, 1);
    if (d.readahead == 0 || iosInProgress > 0 || m_missRate > kCachedMissRate)
        return;
    d.readahead = std::max(1, d.readahead - 1);
    d.combine = std::max(1, d.combine - 1);
}

void AdaptivePolicy::onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead& read) {
    if (read.latencyNs > 0)
        m_latencyNs = m_latencyNs <= 0.0
                          ? static_cast<double>(read.latencyNs)
                          : m_latencyNs + kEwma * (static_cast<double>(read.latencyNs) - m_latencyNs);
    if (d.combine > 0 && d.combine < limits.ioCombineLimit)
        d.combine = std::min({d.combine * 2, limits.ioCombineLimit, limits.maxPinned});
    if (d.readahead == 0)
        return;
    const int goal = target(d, limits);
    if (read.neededWait)
        d.readahead = std::min(std::max(d.readahead * 2, goal), limits.maxPinned);
    else if (d.readahead < goal)
        d.readahead = goal;
    else if (d.readahead > goal && goal > 0)
        --d.readahead;
}

void AdaptivePolicy::onConsumed(std::int64_t now, std::int64_t waitNs) {
    if (m_lastConsumed >= 0) {
        const double gap = static_cast<double>(std::max<std::int64_t>(0, now - m_lastConsumed - waitNs));
        m_blockGapNs = m_blockGapNs <= 0.0 ? gap : m_blockGapNs + kEwma * (gap - m_blockGapNs);
    }
    m_lastConsumed = now;
}

} // namespace la

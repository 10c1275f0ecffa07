// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distance_policy.h"

#include <cstdint>

namespace la {

// Lookahead's own policy (docs/adaptive-policy.md). It aims at the distance that hides the measured
// read latency at the measured consumption rate, instead of reacting to the last hit or miss:
// - target = ceil(1.25 x latency / time per block) + combine distance, capped at max_pinned;
// - a wait means the target was too low: grow at once (at least x2, at least to the target);
// - reads that finish in time let an oversized distance shrink by one per read, so a slow consumer
//   pins no more than it needs;
// - hits decay the distance only when the recent miss rate is ~0 (a cached stretch), so sparse or
//   alternating misses can never pull it down to 1<->2.
class AdaptivePolicy final : public DistancePolicy {
public:
    std::string name() const override { return "adaptive"; }
    void start(Distances& d, const StreamLimits& limits, bool full) override;
    void onNoIo(Distances& d, const StreamLimits& limits, int iosInProgress) override;
    void onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead& read) override;
    bool observesWorkload() const override { return true; }
    void onReadStarted(int missBlocks) override;
    void onConsumed(std::int64_t now, std::int64_t waitNs) override;

    int target(const Distances& d, const StreamLimits& limits) const;

private:
    void observeBlocks(int misses, int blocks);

    double m_latencyNs = 0.0;  // EWMA of read latency; 0 = not measured yet
    double m_blockGapNs = 0.0; // EWMA of consumer time per block, waits excluded
    double m_missRate = 0.0;   // decaying miss fraction over roughly the last 256 blocks
    std::int64_t m_lastConsumed = -1;
};

} // namespace la

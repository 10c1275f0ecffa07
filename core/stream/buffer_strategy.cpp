// SPDX-License-Identifier: GPL-3.0-or-later
// PostgreSQL's BULKREAD ring as freelist.c's GetAccessStrategy() sizes it, and heapam.c's initscan()
// rule for when a scan uses it (docs/read-stream-model.md §14).
#include "buffer_strategy.h"

#include "block_size.h"

#include <algorithm>

namespace la {

namespace {
constexpr std::int64_t kBlockKb = kBlockSize / 1024;
constexpr std::int64_t kMinimalRingKb = 256; // room between handing a buffer out and reusing it
} // namespace

int bulkReadRingBuffers(RingRule rule, const StreamConfig& config) {
    std::int64_t ringKb = kMinimalRingKb;
    if (rule == RingRule::PlusIoConcurrency) {
        // Room for effective_io_concurrency reads of io_combine_limit blocks in flight, but no more
        // than the backend may pin (never below the minimal ring).
        const std::int64_t maxKb = std::max(kMinimalRingKb, proportionalPinLimit(config) * kBlockKb);
        ringKb += kBlockKb * config.ioCombineLimit * std::max(0, config.effectiveIoConcurrency);
        ringKb = std::min(ringKb, maxKb);
    }
    const std::int64_t eighth = static_cast<std::int64_t>(config.sharedBuffers / 8);
    return static_cast<int>(std::min(eighth, ringKb / kBlockKb));
}

BufferStrategy chooseStrategy(StrategyChoice choice, RingRule rule, const StreamConfig& config,
                              std::uint64_t relationBlocks) {
    const bool bulkRead =
        choice == StrategyChoice::BulkRead || (choice == StrategyChoice::Auto && config.sequentialFlag &&
                                               relationBlocks > config.sharedBuffers / 4);
    return BufferStrategy{bulkRead ? bulkReadRingBuffers(rule, config) : 0};
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "stream_config.h"

#include <algorithm>

namespace la {

namespace {
constexpr int kInt16Max = 32767;

// Buffers one backend may pin, from shared_buffers over all backend and auxiliary process slots
// at default settings of each version (docs/read-stream-model.md §3.2).
std::int64_t proportionalPins(const StreamConfig& config, PinLimitRule rule) {
    if (rule == PinLimitRule::FourPerIo)
        return static_cast<std::int64_t>(config.sharedBuffers) / (config.maxConnections + 3 + 8 + 10 + 2 + 6);
    return proportionalPinLimit(config);
}

// PG17 takes what the backend already holds off at the stream's start (LimitAdditionalPins), PG18+
// before every read (ReadStream::pinBudget); their cap on max_pinned_buffers is the whole limit.
std::int64_t pinnedCap(const StreamConfig& config, PinLimitRule rule) {
    const std::int64_t pins = proportionalPins(config, rule);
    if (rule == PinLimitRule::FourPerIo)
        return std::max<std::int64_t>(1, pins - std::max(kRefCountArrayEntries, config.otherPins));
    return std::max<std::int64_t>(1, pins);
}
} // namespace

std::int64_t proportionalPinLimit(const StreamConfig& config) {
    const std::int64_t backends = config.maxConnections + 16 + 8 + 10 + 2 + 6 + 32;
    return static_cast<std::int64_t>(config.sharedBuffers) / backends;
}

StreamLimits computeLimits(const StreamConfig& config, const Mechanics& mechanics) {
    StreamLimits limits;
    limits.ioCombineLimit = config.ioCombineLimit;
    const int eic = std::min(
        config.maintenanceFlag ? config.maintenanceIoConcurrency : config.effectiveIoConcurrency, kInt16Max);
    limits.maxIos = std::max(1, eic);

    std::int64_t pinned = mechanics.pinLimit == PinLimitRule::FourPerIo
                              ? std::max<std::int64_t>(4LL * limits.maxIos, config.ioCombineLimit)
                              : (std::int64_t{limits.maxIos} + 1) * config.ioCombineLimit;
    pinned = std::min<std::int64_t>(pinned, kInt16Max - (config.ioCombineLimit - 1) - 1);
    if (config.ringBuffers > 0) // GetAccessStrategyPinLimit: BULKREAD's whole ring
        pinned = std::min<std::int64_t>(pinned, config.ringBuffers);
    pinned = std::min<std::int64_t>(pinned, pinnedCap(config, mechanics.pinLimit));
    if (config.maxPinnedOverride > 0)
        pinned = config.maxPinnedOverride;
    limits.maxPinned = static_cast<int>(std::max<std::int64_t>(1, pinned));
    // An override stands for every limit on pins, the per-read one too.
    if (mechanics.pinLimit == PinLimitRule::ReadPerIoPlusOne && config.maxPinnedOverride == 0)
        limits.backendPinLimit = static_cast<int>(pinnedCap(config, mechanics.pinLimit));

    const bool consumerReads = !mechanics.asynchronousIo || config.ioMethod == IoMethod::Sync;
    limits.synchronous = consumerReads || eic == 0;
    // Advice only helps reads the consumer performs itself; O_DIRECT bypasses the page cache it fills.
    const bool adviceAllowed = !config.directIo && !config.sequentialFlag && eic > 0;
    limits.adviceEnabled = adviceAllowed && consumerReads;
    return limits;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "stream_config.h"

#include <algorithm>

namespace la {

namespace {
constexpr int kInt16Max = 32767;

// Buffers one backend may pin, from shared_buffers over all backend and auxiliary process slots
// at default settings of each version (model doc 3.2).
int backendPinLimit(const StreamConfig& config, Rules rules) {
    const auto buffers = static_cast<std::int64_t>(config.sharedBuffers);
    if (rules == Rules::Pg17) {
        const std::int64_t backends = config.maxConnections + 3 + 8 + 10 + 2 + 6;
        return static_cast<int>(std::max<std::int64_t>(1, buffers / backends - 8));
    }
    const std::int64_t backends = config.maxConnections + 16 + 8 + 10 + 2 + 6 + 32;
    return static_cast<int>(std::max<std::int64_t>(1, buffers / backends));
}
} // namespace

StreamLimits computeLimits(const StreamConfig& config, Rules rules) {
    StreamLimits limits;
    limits.ioCombineLimit = config.ioCombineLimit;
    const int eic = std::min(config.effectiveIoConcurrency, kInt16Max);
    limits.maxIos = std::max(1, eic);

    std::int64_t pinned = rules == Rules::Pg17
                              ? std::max<std::int64_t>(4LL * limits.maxIos, config.ioCombineLimit)
                              : (std::int64_t{limits.maxIos} + 1) * config.ioCombineLimit;
    pinned = std::min<std::int64_t>(pinned, kInt16Max - (config.ioCombineLimit - 1) - 1);
    pinned = std::min<std::int64_t>(pinned, backendPinLimit(config, rules));
    if (config.maxPinnedOverride > 0)
        pinned = config.maxPinnedOverride;
    limits.maxPinned = static_cast<int>(std::max<std::int64_t>(1, pinned));

    const bool pg17 = rules == Rules::Pg17;
    limits.synchronous = pg17 || config.ioMethod == IoMethod::Sync || eic == 0;
    const bool adviceAllowed = !config.directIo && !config.sequentialFlag && eic > 0;
    limits.adviceEnabled = adviceAllowed && (pg17 || config.ioMethod == IoMethod::Sync);
    return limits;
}

} // namespace la

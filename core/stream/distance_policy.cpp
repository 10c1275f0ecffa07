// SPDX-License-Identifier: GPL-3.0-or-later
#include "distance_policy.h"

#include <algorithm>

namespace la {

Distances startingDistances(const StreamLimits& limits, bool full, bool separateCombine) {
    const int initial = full ? std::min(limits.maxPinned, limits.ioCombineLimit) : 1;
    return Distances{initial, separateCombine ? initial : limits.ioCombineLimit, 0};
}

} // namespace la

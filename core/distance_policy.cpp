// SPDX-License-Identifier: GPL-3.0-or-later
#include "distance_policy.h"

#include "adaptive_policy.h"
#include "input_error.h"
#include "pg_policies.h"

#include <algorithm>
#include <charconv>

namespace la {

Distances startingDistances(const StreamLimits& limits, bool full, bool separateCombine) {
    const int initial = full ? std::min(limits.maxPinned, limits.ioCombineLimit) : 1;
    return Distances{initial, separateCombine ? initial : limits.ioCombineLimit, 0};
}

std::unique_ptr<DistancePolicy> makePolicy(const std::string& name) {
    if (name == "pg17")
        return std::make_unique<Pg17Policy>();
    if (name == "pg18")
        return std::make_unique<Pg18Policy>();
    if (name == "pg19")
        return std::make_unique<Pg19Policy>();
    if (name == "adaptive")
        return std::make_unique<AdaptivePolicy>();
    if (name.starts_with("fixed:")) {
        const std::string digits = name.substr(6);
        int distance = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), distance);
        if (error != std::errc{} || end != digits.data() + digits.size() || distance < 1 || distance > 32767)
            throw InputError("policy '" + name +
                             "': the distance after 'fixed:' must be a whole number 1..32767");
        return std::make_unique<FixedPolicy>(distance);
    }
    throw InputError("unknown policy '" + name + "': choose pg17, pg18, pg19, fixed:N or adaptive");
}

} // namespace la

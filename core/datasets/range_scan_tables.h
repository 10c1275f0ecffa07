// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "visits.h"

#include <cstdint>

namespace la {

// Family A (docs/datasets.md §3): 10M rows at 18 rows per page, keys in heap order, `a BETWEEN lo AND hi`.
struct FamilyASpec {
    enum class Keys : std::uint8_t { Uniform, Linear, Cyclic };
    Keys keys = Keys::Linear;
    double noisePercent = 0.0; // the _1/_10/_25 variants: Gaussian noise with sigma = X% of the domain
};

std::uint64_t familyARelationBlocks(double scale);
Visits generateFamilyA(const FamilyASpec& spec, double scale, std::uint64_t seed);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "visits.h"

#include <cstdint>

namespace la {

// Family B (docs/datasets.md §4): Vondra's parametric generator. 10M rows of (bigint, md5 text), each value
// repeated `step` times; the value order is shuffled by `fuzz` (-1 = fully random) and the rows by `fuzz2`.
struct FamilyBSpec {
    std::uint32_t step = 1;
    std::int64_t fuzz = 0;
    std::uint32_t fuzz2 = 0;
    std::uint32_t fillfactor = 20;
    bool decrease = false;        // key = -value: the key order runs against the physical order
    std::uint64_t firstValue = 0; // query range in values (1-based) at full size
    std::uint64_t valueCount = 0;
};

std::uint64_t familyBRelationBlocks(const FamilyBSpec& spec, double scale);
// Forward scan = `ORDER BY a ASC` on an ASC index; for "decrease" that walks the values downwards.
Visits generateFamilyB(const FamilyBSpec& spec, double scale, std::uint64_t seed);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed_trace.h"

#include <cstdint>
#include <span>

namespace la {

// Descending runs of 8 kB reads: consecutive single-block reads each one block below the one
// before (a backward scan reading block by block). Read as one ascending I/O of up to
// `combineLimit` blocks, a run of L reads needs ceil(L / combineLimit).
struct CombinableRuns {
    std::uint64_t runs = 0;       // runs of at least two reads
    std::uint64_t readsSaved = 0; // reads that combining them would save
};

CombinableRuns combinableDescendingRuns(std::span<const ObservedRead> reads, int combineLimit = 16);

} // namespace la

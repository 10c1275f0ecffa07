// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "dataset.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace la {

// A forward visit sequence and the size of the relation it lives in; `resetsBefore`: where the
// stream is reset (vector_source.h), ascending.
struct Visits {
    std::vector<std::uint32_t> blocks;
    std::uint64_t relationBlocks = 0;
    std::vector<std::uint64_t> resetsBefore;
};

// Appends a heap block to a visit sequence, collapsing consecutive duplicates: an index scan keeps the
// current heap page pinned while successive TIDs hit it, so it is one visit (docs/datasets.md §2.3).
inline void appendVisit(std::vector<std::uint32_t>& visits, std::uint32_t block) {
    if (visits.empty() || visits.back() != block)
        visits.push_back(block);
}

// The sequence as a source; a backward scan is the exact reverse of the forward one (§2.2), its
// resets included.
std::unique_ptr<BlockSource> makeVisitSource(Visits visits, Direction direction);

} // namespace la

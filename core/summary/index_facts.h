// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace la::pg {

// What the summary shows about an index scan (docs/pg-relations.md §5).
struct IndexFacts {
    std::uint64_t indexBlocks = 0;
    std::uint64_t leafPages = 0;    // leaf pages that returned at least one TID (the batches)
    std::uint64_t tids = 0;         // heap TIDs returned, posting lists expanded
    std::uint64_t postingLists = 0; // posting-list tuples that returned a TID
    std::uint64_t deadItems = 0;    // LP_DEAD items skipped (in range, or the whole index without one)
    std::uint64_t visits = 0;       // heap block changes: the stream's requests
    std::uint64_t distinctBlocks = 0;
    std::uint64_t ascendingSteps = 0;  // to the next block up (b+1)
    std::uint64_t descendingSteps = 0; // to the next block down (b-1)
    std::uint64_t randomSteps = 0;     // any other jump
    bool checksums = false;            // index pages were checksum-verified
};

} // namespace la::pg

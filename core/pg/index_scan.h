// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "checksum_mode.h"
#include "dataset.h"
#include "key_range.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

struct IndexScanSpec {
    std::string index; // first segment file
    Direction direction = Direction::Forward;
    std::optional<KeyRange> range; // none: the whole index
    ChecksumMode checksums = ChecksumMode::Auto;
    // The table's size in blocks, all its segments: every TID must point inside it. Unset (tests,
    // the bench) leaves TIDs unchecked; a scan of a user's files always sets it.
    std::optional<std::uint64_t> heapBlocks;
    std::string heap; // the table's first segment, for messages
};

// The heap visit sequence an index scan drives: one entry per heap block change, in scan order.
struct IndexVisits {
    std::vector<std::uint32_t> blocks;
    // Where each leaf page's first new visit is, after the first page's: batch boundaries.
    std::vector<std::uint64_t> batchStarts;
    IndexFacts facts;
    std::uint32_t maxBlock = 0;
};

// Reads the btree read-only and derives the visits. Throws InputError naming the file and block
// for anything that is not a sound btree of version 4 (docs/pg-relations.md §2.4), a TID past the
// table's end, or a key range the key cannot have. With a key range the keys are checked too: on
// each leaf page none above its high key, and the right sibling's first not below it.
IndexVisits scanIndex(const IndexScanSpec& spec);

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "checksum_mode.h"
#include "dataset.h"
#include "index_facts.h"
#include "key_range.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace la::pg {

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

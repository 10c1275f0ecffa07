// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "dataset.h"

#include <cstdint>
#include <memory>

namespace la {

// Synthetic block lists of docs/read-stream-model.md §13 on a relation of `blocks` blocks. seq, random and
// hash-groups are computed item by item (O(1) or O(visits/12) memory), never as a materialised list.

// 0..blocks-1 (S1; S3/S4 are this list with a prewarmed cache). Backward gives S2.
std::unique_ptr<BlockSource> makeSequentialPattern(std::uint64_t blocks, Direction direction);

// A seeded permutation of 0..blocks-1 (S5).
std::unique_ptr<BlockSource> makeRandomPattern(std::uint64_t blocks, std::uint64_t seed, Direction direction);

// S6 (S7 backward): an index scan over a heap clustered on a hash of the key, 20 rows per page, one item
// per TID (not collapsed).
std::unique_ptr<BlockSource> makeHashGroupsPattern(std::uint64_t blocks, std::uint64_t seed,
                                                   Direction direction);

} // namespace la

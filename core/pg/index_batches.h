// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace la::pg {

// How an index scan's read stream meets the index's leaf pages (docs/pg-relations.md §6,
// docs/read-stream-model.md §9): one stream across them (continue), a reset at each (reset, the 2025
// "simple" patch), or a ring of open batches that pauses the stream when it is full (ring, the
// patch as it stands).
enum class IndexBatches : std::uint8_t { Continue, Reset, Ring };

// "continue", "reset", "ring" (enum_names.cpp).
const char* indexBatchesName(IndexBatches batches);
std::optional<IndexBatches> indexBatchesNamed(std::string_view name);

// --index-batches as a value: the mode and, for ring, how many batches it holds open.
struct IndexBatching {
    static constexpr int kDefaultRing = 64; // the patch's ring size
    static constexpr int kMaxRing = 1024;
    IndexBatches mode = IndexBatches::Continue;
    int ring = kDefaultRing;

    bool operator==(const IndexBatching&) const = default;
};

// "continue", "reset", "ring" (64 batches) or "ring:N"; throws InputError naming `option` and saying
// what is wrong for anything else.
IndexBatching parseIndexBatching(const std::string& text, std::string_view option);
// The value's text, as parseIndexBatching() reads it: "ring" for a ring of 64.
std::string indexBatchingText(const IndexBatching& batching);

// The ring's start rule: the stream starts when the scan switches heap block for the fourth time,
// the visits before it are the backend's own reads.
constexpr std::uint64_t kRingStreamStartsAfter = 4;

} // namespace la::pg

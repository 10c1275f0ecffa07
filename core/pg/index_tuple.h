// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace la::pg {

// A heap tuple's address: block and line pointer.
struct Tid {
    std::uint32_t block = 0;
    std::uint16_t offset = 0;
};

// One btree leaf tuple as PostgreSQL lays it out (docs/pg-relations.md §2.3): an 8-byte header
// (a TID and t_info), an optional null bitmap, the key, and for a posting-list tuple (made by
// deduplication) the sorted array of TIDs that share the key.
struct IndexTuple {
    const std::byte* data = nullptr;
    std::uint32_t length = 0;
    bool hasNulls = false;
    bool hasVarWidth = false;  // some key attribute is variable-width (text, numeric, ...)
    bool pivot = false;        // a separator (high key or internal-page downlink), no heap TID
    bool pivotHeapTid = false; // a separator that ends with a heap TID (equal keys either side)
    bool posting = false;
    std::uint32_t postingCount = 0;
    std::uint32_t postingOffset = 0;
    Tid tid; // of a plain tuple; a pivot's holds its downlink block

    Tid postingTid(std::uint32_t i) const;
    // Bytes from the key's start to the end of the key data (the posting list excluded).
    std::uint32_t keyBytes() const;
    std::uint32_t keyOffset() const { return hasNulls ? 16 : 8; }
    // The first key attribute is NULL (only meaningful if hasNulls).
    bool leadingNull() const;
    // Key attributes a separator keeps after suffix truncation; 0 is "minus infinity".
    std::uint32_t pivotKeys() const { return tid.offset & 0x0FFFu; }
};

// Parses the tuple, or returns what is wrong with it (bounds that do not fit its length).
std::string parseIndexTuple(const std::byte* data, std::uint32_t length, IndexTuple& tuple);

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "index_tuple.h"

#include <cstdint>
#include <optional>
#include <string>

namespace la::pg {

// A range on the index's leading integer column, `a BETWEEN lo AND hi`.
struct KeyRange {
    std::uint32_t keyBytes = 8; // int2, int4 or int8
    std::int64_t lo = 0, hi = 0;
};

// Builds the range from --pg-key (int2, int4, int8; empty = int8) and --pg-key-range "LO:HI" (empty =
// the whole index: nothing returned). Throws InputError for a malformed or reversed range or one
// outside the key type's values.
std::optional<KeyRange> parseKeyRange(const std::string& keyType, const std::string& range);

// The tuple's leading key, or nothing if it is NULL. Throws nothing: `problem` is set instead when
// the tuple cannot hold an integer key of the range's type (a variable-width or shorter key).
std::optional<std::int64_t> leadingKey(const IndexTuple& tuple, const KeyRange& range, std::string& problem);

} // namespace la::pg

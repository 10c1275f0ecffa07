// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "index_tuple.h"

#include <cstdint>
#include <optional>
#include <string>

namespace la::pg {

// A range on the index's leading column, `a BETWEEN lo AND hi`. Every type read here is stored as a
// signed integer that sorts as the values do: int2, int4, int8, date (int4 days) and timestamp and
// timestamptz (int8 microseconds), so the bounds are kept in that form.
struct KeyRange {
    std::string type = "int8";  // as --pg-key names it
    std::uint32_t keyBytes = 8; // the stored value's width
    std::int64_t lo = 0, hi = 0;
};

// Builds the range from --pg-key (int2, int4, int8, date, timestamp, timestamptz; empty = int8) and
// --pg-key-range "LO:HI", each bound written as PostgreSQL prints the type (empty = the whole index:
// nothing returned). Throws InputError for a malformed or reversed range or one outside the key
// type's values.
std::optional<KeyRange> parseKeyRange(const std::string& keyType, const std::string& range);

// The tuple's leading key, or nothing if it is NULL. Throws nothing: `problem` is set instead when
// the tuple cannot hold a key of the range's type (a variable-width or shorter key).
std::optional<std::int64_t> leadingKey(const IndexTuple& tuple, const KeyRange& range, std::string& problem);

} // namespace la::pg

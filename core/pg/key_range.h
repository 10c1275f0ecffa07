// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "key_column.h"
#include "tuple_key.h"

#include <optional>
#include <string>
#include <vector>

namespace la::pg {

// The conditions of a range scan on the index's leading columns (docs/pg-relations.md §3): one per
// column, `a BETWEEN LO AND HI` or `a = V`, the first `compared()` of `columns`; the columns after
// them are named only so that a tuple's layout is known.
struct KeyRange {
    std::vector<KeyColumn> columns; // --pg-key, in the index's column order
    TupleKey lo, hi;                // the bounds of each compared column (= gives lo = hi)

    std::size_t compared() const { return lo.values.size(); }
    // Whether every compared column of `key` lies within its bounds (NULL within none).
    bool contains(const TupleKey& key) const;
    // Whether a compared column is text, whose order the collation decides.
    bool comparesText() const;
};

// Builds the range from --pg-key (comma-separated column types; empty = int8), --pg-key-range
// (comma-separated conditions, each LO:HI or one value, written as PostgreSQL prints the type; empty =
// the whole index: nothing returned) and --pg-collation (the text columns' collation: C or POSIX).
// Throws InputError for an unknown type, a malformed, ambiguous or reversed condition, more conditions
// than columns, or a text column compared without a byte-order collation.
std::optional<KeyRange> parseKeyRange(const std::string& keyTypes, const std::string& range,
                                      const std::string& collation = {});

} // namespace la::pg

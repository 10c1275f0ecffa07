// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "index_tuple.h"
#include "key_column.h"

#include <string>
#include <vector>

namespace la::pg {

// An index tuple's leading key columns as a scan compares them. A separator that suffix truncation
// cut short has fewer values than the columns compared: the missing ones are minus infinity.
struct TupleKey {
    std::vector<KeyValue> values;
};

// Reads the first `count` of `columns` from `tuple` into `key` (its storage reused), as PostgreSQL
// lays the attributes out (docs/pg-relations.md §3): skipping NULLs, each attribute aligned to its
// type (a varlena with a one-byte header not at all). Returns what is wrong, or empty: an
// attribute past the tuple's end, a varlena that cannot be compared offline, or a tuple flagged
// variable-width while `columns` names fixed-width ones only (which column is then unknown).
std::string readTupleKey(const IndexTuple& tuple, const std::vector<KeyColumn>& columns, std::size_t count,
                         TupleKey& key);

// <0, 0 or >0 as `a` sorts before, with or after `b`, column by column (missing values last: minus
// infinity).
int compareKeys(const std::vector<KeyColumn>& columns, const TupleKey& a, const TupleKey& b);

// The key as a message shows it: "5", "(5, 'abc')".
std::string keyText(const std::vector<KeyColumn>& columns, const TupleKey& key);

} // namespace la::pg

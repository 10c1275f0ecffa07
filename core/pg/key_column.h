// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace la::pg {

// How a key column's values are stored and compared (docs/pg-relations.md §3).
enum class KeyKind {
    Integer, // int2, int4, int8, date, timestamp, timestamptz: a signed integer that sorts as the values
    Uuid,    // 16 bytes, compared as unsigned bytes
    Text,    // text, varchar: a varlena, compared as unsigned bytes (the C collation)
};

// One column of the index, as --pg-key names it.
struct KeyColumn {
    std::string type;
    KeyKind kind = KeyKind::Integer;
    std::uint32_t width = 8; // stored bytes; 0 for a varlena
    std::uint32_t align = 8; // PostgreSQL's typalign in bytes
};

// The columns --pg-key names, comma-separated in index order (empty = int8). Throws InputError for
// a type the reader does not know, naming the ones it does.
std::vector<KeyColumn> parseKeyColumns(const std::string& types);

// One column's value: an integer, or the bytes of a uuid or text. NULL sorts after every value.
struct KeyValue {
    bool null = false;
    std::int64_t integer = 0;
    std::string bytes;
};

// A value written as PostgreSQL prints the column's type (integers, dates, timestamps, uuids;
// text as it is), or nothing if the text is not one.
std::optional<KeyValue> parseKeyValue(const KeyColumn& column, std::string_view text);

// <0, 0 or >0 as `a` sorts before, with or after `b` in an ascending, NULLS LAST column.
int compareValues(const KeyColumn& column, const KeyValue& a, const KeyValue& b);

// The value as a message shows it.
std::string valueText(const KeyColumn& column, const KeyValue& value);

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace la::pg {

// PostgreSQL's date and timestamp values as its btree stores them (docs/pg-relations.md §3): a date
// is an int4 count of days since 2000-01-01, a timestamp (and a timestamptz, in UTC) an int8 count of
// microseconds since 2000-01-01 00:00:00; 'infinity' and '-infinity' are the type's extremes.

// "YYYY-MM-DD" (years 1..9999), or nothing if the text is not such a date.
std::optional<std::int32_t> parseDateKey(std::string_view text);

// "YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]" (a 'T' may stand for the space), or nothing.
std::optional<std::int64_t> parseTimestampKey(std::string_view text);

} // namespace la::pg

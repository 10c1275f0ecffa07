// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace la::pg {

// PostgreSQL's uuid as its btree stores it (docs/pg-relations.md §3): 16 bytes, compared as
// unsigned bytes, so the bytes themselves are the key.
inline constexpr std::size_t kUuidBytes = 16;

// The 16 bytes of a uuid written as PostgreSQL accepts one: 32 hex digits (either case), a hyphen
// allowed after any group of four, the whole optionally in braces; or nothing.
std::optional<std::string> parseUuidKey(std::string_view text);

// The canonical form, 8-4-4-4-12 lower-case hex digits, of 16 bytes.
std::string uuidText(std::string_view bytes);

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace la::pg {

// text and varchar keys as a btree stores them (docs/pg-relations.md §3): a varlena, its header
// one byte (values up to 126 bytes) or four, compared byte by byte as the C collation does.

// One variable-length value at `at`, with `room` bytes left for it: its header and its bytes.
struct Varlena {
    std::uint32_t size = 0; // header included: where the next attribute may start
    std::string_view value; // the bytes after the header
    std::string problem;    // set instead when the value cannot be read here
};

// Reads the varlena at `at` (little-endian headers). A value stored compressed or out of line
// (TOAST) cannot be compared without the server: `problem` names it, as it does a size that does
// not fit `room`.
Varlena readVarlena(const std::byte* at, std::uint32_t room);

// Whether the byte at `at` can start a varlena without alignment: pad bytes are zero, a one-byte
// header never is (PostgreSQL's att_align_pointer).
inline bool varlenaStartsUnaligned(const std::byte* at) {
    return *at != std::byte{0};
}

// Whether `collation` orders text by its bytes: C and POSIX (the only ones read offline).
bool isByteOrderCollation(std::string_view collation);

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace la::pg {

// PostgreSQL's MaxHeapTuplesPerPage for 8 kB pages: the most line pointers a heap page can have,
// so the highest offset a TID can hold.
inline constexpr std::uint32_t kMaxHeapTuplesPerPage = 291;

// What is wrong with heap page `block` as read from the table's files, or empty: a bad header
// (page_header.h), special space (a heap page has none: an index's page is not a table's), if
// `checksums` a data checksum mismatch, or line pointers that point outside the tuple area or
// redirect to none. New (all-zero) pages are sound: a table grows by them. Judges the 8192 bytes
// alone, and is safe on arbitrary bytes.
std::string heapPageProblem(const std::byte* page, std::uint32_t block, bool checksums);

} // namespace la::pg

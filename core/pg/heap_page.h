// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace la::pg {

// What is wrong with heap page `block` as read from the table's files, or empty: a bad header
// (page_header.h), special space (a heap page has none: an index's page is not a table's), or, if
// `checksums`, a data checksum mismatch. New (all-zero) pages are sound: a table grows by them.
std::string heapPageProblem(const std::byte* page, std::uint32_t block, bool checksums);

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>

namespace la::pg {

// PostgreSQL's data checksum of an 8 kB page (docs/pg-relations.md §4): 32 interleaved FNV-1a-style
// sums over the page with pd_checksum taken as zero, two extra rounds of zeros, folded by XOR, the
// relation block number mixed in, and reduced to 1..65535. `block` is the block number within the
// relation (not within its segment file). Only meaningful for pages that are not new.
std::uint16_t pageChecksum(const std::byte* page, std::uint32_t block);

} // namespace la::pg

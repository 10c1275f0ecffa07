// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "visits.h"

#include <cstdint>

namespace la {

// C2 (docs/datasets.md §5.2): the TPC-C order_line primary-key scan `ol_w_id < 10`. Rows are loaded in PK
// order per warehouse by 8 concurrent loader streams, each filling its own extents of `extentBlocks`.
Visits generateTpcc(std::uint32_t extentBlocks, double scale, std::uint64_t seed);

// C3 (§5.3): the leaf pages of pgbench_accounts_pkey at 90M rows, read by an index-only scan.
std::uint64_t pgbenchIndexBlocks(double scale);
Visits generatePgbenchIndex(double scale);

} // namespace la

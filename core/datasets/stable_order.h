// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace la {

// Indices 0..n-1 ordered by (keys[i], i): a stable sort by key, as the recipes need (docs/datasets.md §2.5).
// Bucket sort, so the 10M-row shuffles of the published sizes take linear time; the keys there are spread
// evenly (uniform draws, or positions plus bounded jitter), which keeps the buckets tiny.
std::vector<std::uint32_t> stableOrder(const std::vector<double>& keys);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>

namespace la {

// PostgreSQL stores a relation in 1 GiB segment files: "16390", "16390.1", "16390.2", ...
inline constexpr std::uint64_t kBlocksPerSegment = 131072;

struct SegmentedPath {
    std::string_view relation; // the path of segment 0
    std::uint32_t segment = 0;
};

// ".../base/5/16390.2" is segment 2 of ".../base/5/16390"; a name that is not a relation file's
// (no digits before the dot, or not only digits after it) is its own segment 0.
SegmentedPath splitSegment(std::string_view path);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "progressive_cells.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace la {

class RunTrace;

// Read sizes per pixel column: which sizes (in blocks, 1..255) were issued in each column. A column
// holds a bit per size, so a million reads cost no more to draw than one per size and column.
// Progressive like the rasters.
using ReadSizeBits = std::array<std::uint64_t, 4>; // a bit per read size in blocks, 0..255
class IoSizeScatter : public ProgressiveColumns<ReadSizeBits, std::size_t> {
public:
    using Key = ColumnKey;
    struct Point {
        double x;
        int blocks;
    };

    bool update(const RunTrace& trace, const Key& key, std::uint64_t budget);
    // One point per (column, size) present, at the column centre, ordered by x.
    std::vector<Point> points() const;
};

} // namespace la

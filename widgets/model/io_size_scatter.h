// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "grid.h"
#include "progressive.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace la {

class RunTrace;

// Read sizes per pixel column: which sizes (in blocks, 1..255) were issued in each column. A column
// holds a bit per size, so a million reads cost no more to draw than one per size and column.
// Progressive like the rasters.
class IoSizeScatter : public Progressive<ColumnKey, std::size_t> {
public:
    using Key = ColumnKey;
    struct Point {
        double x;
        int blocks;
    };

    bool update(const RunTrace& trace, const Key& key, std::uint64_t budget);
    // One point per (column, size) present, at the column centre, ordered by x.
    std::vector<Point> points() const;

private:
    using SizeBits = std::array<std::uint64_t, 4>;
    std::vector<SizeBits> m_columns;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "axis_map.h"
#include "x_mapping.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace la {

// What a raster was binned for: the x mode and the pixel grid over x and y. A view asks for a key;
// when it differs from the last one the raster starts over.
struct RasterKey {
    XAxis mode = XAxis::Time;
    AxisMap x;
    AxisMap y;

    bool valid() const { return x.valid() && y.valid(); }
    bool operator==(const RasterKey&) const = default;
};

// What a per-column reduction (I/O sizes, state series) was binned for: the x mode and the pixel
// columns.
struct ColumnKey {
    XAxis mode = XAxis::Time;
    AxisMap x;

    bool operator==(const ColumnKey&) const = default;
};

// nx × ny cells, stored row by row (y major) as QCPColorMap indexes them.
template <typename Cell> class Grid {
public:
    // Empty cells on the key's grid; none for an invalid key.
    void reset(const RasterKey& key) {
        m_nx = key.valid() ? key.x.cells : 0;
        m_ny = key.valid() ? key.y.cells : 0;
        m_cells.assign(static_cast<std::size_t>(m_nx) * static_cast<std::size_t>(m_ny), Cell{});
    }
    int nx() const { return m_nx; }
    int ny() const { return m_ny; }
    Cell& at(int x, int y) { return m_cells[static_cast<std::size_t>(y) * m_nx + x]; }
    const Cell& at(int x, int y) const { return m_cells[static_cast<std::size_t>(y) * m_nx + x]; }

private:
    int m_nx = 0;
    int m_ny = 0;
    std::vector<Cell> m_cells;
};

// The cells [first, last] a unit [lo, hi) of data (a position, a block, a read's blocks) is drawn in,
// clipped to the grid. A unit narrower than a cell counts once, in the cell where it starts (so cell
// counts add up to the data); a wider one covers every cell it meets. Returns false if it is outside.
inline bool coveredCells(const AxisMap& map, double lo, double hi, int& first, int& last) {
    first = map.cellOf(lo);
    last = hi - lo < map.cellWidth() ? first : map.cellOf(hi);
    if (last < 0 || first >= map.cells)
        return false;
    // `hi` is exclusive: a unit ending exactly on a cell boundary does not reach into the next cell.
    if (last > first && map.cellStart(last) >= hi)
        --last;
    first = std::max(first, 0);
    last = std::min(last, map.cells - 1);
    return true;
}

} // namespace la

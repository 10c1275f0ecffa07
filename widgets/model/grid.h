// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "axis_map.h"
#include "x_mapping.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace la {

// How many times `to` doubles the span of `from` over the same start and the same cells (0: the same
// map); -1 if it is anything else. A live axis grows by doublings, so what was binned for `from` folds
// into `to` (cells merged in pairs) instead of being binned again from the start.
inline int doublings(const AxisMap& from, const AxisMap& to) {
    if (from.lo != to.lo || from.cells != to.cells || !from.valid() || !to.valid())
        return -1;
    int times = 0;
    for (double hi = from.hi; hi <= to.hi && times < 64; ++times) {
        if (hi == to.hi)
            return times;
        hi = from.lo + 2.0 * (hi - from.lo);
    }
    return -1;
}

// Folds a row of cells in pairs `times` times: cell c takes cells 2c and 2c + 1 (`merge(into, from)`),
// the upper half comes out empty. The cells then cover twice the span each time.
template <typename Cell, typename Merge>
void foldCells(Cell* cells, std::size_t count, std::size_t stride, int times, Merge merge) {
    for (int t = 0; t < times; ++t) {
        for (std::size_t c = 0; c < count; ++c) {
            Cell folded{};
            if (2 * c < count)
                folded = cells[2 * c * stride];
            if (2 * c + 1 < count)
                merge(folded, cells[(2 * c + 1) * stride]);
            cells[c * stride] = folded;
        }
    }
}

// What a raster was binned for: the x mode and the pixel grid over x and y. A view asks for a key;
// when it differs from the last one the raster starts over.
struct RasterKey {
    XAxis mode = XAxis::Time;
    AxisMap x;
    AxisMap y;

    bool valid() const { return x.valid() && y.valid(); }
    bool operator==(const RasterKey&) const = default;
};

// Whether cells binned for `from` fold into `to`: the same mode, and x and y each doubled zero or
// more times (how many in `xTimes`, `yTimes`).
inline bool foldsInto(const RasterKey& from, const RasterKey& to, int& xTimes, int& yTimes) {
    xTimes = doublings(from.x, to.x);
    yTimes = doublings(from.y, to.y);
    return from.mode == to.mode && xTimes >= 0 && yTimes >= 0;
}

// What a per-column reduction (I/O sizes, state series) was binned for: the x mode and the pixel
// columns.
struct ColumnKey {
    XAxis mode = XAxis::Time;
    AxisMap x;

    bool operator==(const ColumnKey&) const = default;
};

// Whether columns binned for `from` fold into `to` (x doubled `times` times, the same mode).
inline bool foldsInto(const ColumnKey& from, const ColumnKey& to, int& times) {
    times = doublings(from.x, to.x);
    return from.mode == to.mode && times >= 0;
}

// nx × ny cells, stored row by row (y major) as QCPColorMap indexes them.
template <typename Cell> class Grid {
public:
    // Empty cells on the key's grid; none for an invalid key.
    void reset(const RasterKey& key) {
        m_nx = key.valid() ? key.x.cells : 0;
        m_ny = key.valid() ? key.y.cells : 0;
        m_cells.assign(static_cast<std::size_t>(m_nx) * static_cast<std::size_t>(m_ny), Cell{});
        touchAll();
    }
    // Keeps what is binned while the x and y spans double `xTimes` and `yTimes` times (see foldCells).
    template <typename Merge> void fold(int xTimes, int yTimes, Merge merge) {
        if (m_cells.empty())
            return;
        for (int y = 0; y < m_ny; ++y)
            foldCells(&at(0, y), static_cast<std::size_t>(m_nx), 1, xTimes, merge);
        for (int x = 0; x < m_nx; ++x)
            foldCells(&at(x, 0), static_cast<std::size_t>(m_ny), static_cast<std::size_t>(m_nx), yTimes,
                      merge);
        touchAll();
    }
    int nx() const { return m_nx; }
    int ny() const { return m_ny; }
    Cell& at(int x, int y) { return m_cells[static_cast<std::size_t>(y) * m_nx + x]; }
    const Cell& at(int x, int y) const { return m_cells[static_cast<std::size_t>(y) * m_nx + x]; }

    // Columns [first, last] changed. A view copies only the changed columns into its colour map: a
    // live run bins into its newest columns, and copying the whole grid every frame cost a frame.
    void touch(int first, int last) {
        m_dirtyFirst = std::min(m_dirtyFirst, first);
        m_dirtyEnd = std::max(m_dirtyEnd, last + 1);
    }
    // The columns [first, end) changed since the last call.
    std::pair<int, int> takeTouched() {
        const std::pair<int, int> touched{std::min(m_dirtyFirst, m_dirtyEnd), m_dirtyEnd};
        m_dirtyFirst = std::numeric_limits<int>::max();
        m_dirtyEnd = 0;
        return touched;
    }

private:
    void touchAll() {
        m_dirtyFirst = 0;
        m_dirtyEnd = m_nx;
    }

    int m_nx = 0;
    int m_ny = 0;
    std::vector<Cell> m_cells;
    int m_dirtyFirst = std::numeric_limits<int>::max();
    int m_dirtyEnd = 0;
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

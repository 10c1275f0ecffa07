// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "grid.h"
#include "progressive.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace la {

// What the progressive reductions of a run (progressive.h) share, the opening of every update()
// included: a key that only widens the last one (a live axis doubling) folds what is binned so far,
// any other starts over.

// A raster binned into a Grid of `Cell`s.
template <typename Cell, typename Cursor> class ProgressiveRaster : public Progressive<RasterKey, Cursor> {
public:
    const Grid<Cell>& cells() const { return m_cells; }
    // The columns [first, end) that changed since the last call.
    std::pair<int, int> takeTouched() { return m_cells.takeTouched(); }

protected:
    // Takes `key`: the cells binned so far fold (`merge(into, cell)`), or binning starts over at
    // `first` with empty cells. The units to bin end at `end`. False when the key asks for nothing.
    template <typename Merge> bool beginUpdate(const RasterKey& key, Cursor first, Cursor end, Merge merge) {
        const auto fold = [&](const RasterKey& from, const RasterKey& to) {
            int xTimes = 0, yTimes = 0;
            if (!foldsInto(from, to, xTimes, yTimes))
                return false;
            m_cells.fold(xTimes, yTimes, merge);
            return true;
        };
        if (!this->widen(key, fold) && this->startOver(key, first))
            m_cells.reset(key);
        this->binsUntil(end);
        return key.valid();
    }

    Grid<Cell> m_cells;
};

// A row of pixel columns of `Column`s.
template <typename Column, typename Cursor> class ProgressiveColumns : public Progressive<ColumnKey, Cursor> {
protected:
    // Takes `key`: the columns binned so far fold (`merge(into, column)`), or binning starts over at
    // `first` with empty columns. True when it started over.
    template <typename Merge> bool beginUpdate(const ColumnKey& key, Cursor first, Merge merge) {
        const auto fold = [&](const ColumnKey& from, const ColumnKey& to) {
            int times = 0;
            if (!foldsInto(from, to, times))
                return false;
            foldCells(m_columns.data(), m_columns.size(), 1, times, merge);
            return true;
        };
        if (this->widen(key, fold) || !this->startOver(key, first))
            return false;
        m_columns.assign(key.x.valid() ? static_cast<std::size_t>(key.x.cells) : 0, Column{});
        return true;
    }

    std::vector<Column> m_columns;
};

} // namespace la

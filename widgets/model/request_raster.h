// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "grid.h"
#include "progressive.h"

#include <cstddef>
#include <cstdint>

namespace la {

class RunTrace;

// Reads binned per pixel, seekwatcher-style: each read paints the column it was issued in over the
// rows of the blocks it covered; a cell keeps the largest read (in blocks) that touched it, 0 if none.
// Progressive like HitMissRaster: at most `budget` units of work (reads plus cells) per update().
class RequestRaster : public Progressive<RasterKey, std::size_t> {
public:
    bool update(const RunTrace& trace, const RasterKey& key, std::uint64_t budget);
    const Grid<std::uint8_t>& cells() const { return m_cells; }
    // The columns [first, end) that changed since the last call.
    std::pair<int, int> takeTouched() { return m_cells.takeTouched(); }

private:
    Grid<std::uint8_t> m_cells;
};

} // namespace la

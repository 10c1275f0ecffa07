// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "progressive_cells.h"

#include <cstdint>

namespace la {

class RunTrace;

struct HitMissCell {
    std::uint32_t blocks = 0; // positions binned here
    std::uint32_t misses = 0;
    std::uint32_t waits = 0;
};

// Colour value of a cell: NaN when empty; 0 when every buffer was a hit; up to 1 by the share of
// misses when none was waited for; above 1 by the share of misses the consumer waited for (2 = every
// miss waited). So a wait-free run and a waiting one never share a colour, however dense the cell.
double hitMissValue(const HitMissCell& cell);

// The block × x raster of handed-out buffers, binned per pixel, progressively: each update() does at
// most `budget` units of work (positions plus cells painted).
class HitMissRaster : public ProgressiveRaster<HitMissCell, std::uint64_t> {
public:
    // Continues binning for `key`, starting over if the key changed. Returns true when every position
    // of the trace inside the key's x range is binned.
    bool update(const RunTrace& trace, const RasterKey& key, std::uint64_t budget);
};

} // namespace la

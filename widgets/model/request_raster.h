// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "progressive_cells.h"

#include <cstddef>
#include <cstdint>

namespace la {

class RunTrace;

// Reads binned per pixel, seekwatcher-style: each read paints the column it was issued in over the
// rows of the blocks it covered; a cell keeps the largest read (in blocks) that touched it, 0 if none.
// Progressive like HitMissRaster: at most `budget` units of work (reads plus cells) per update().
class RequestRaster : public ProgressiveRaster<std::uint8_t, std::size_t> {
public:
    bool update(const RunTrace& trace, const RasterKey& key, std::uint64_t budget);
};

} // namespace la

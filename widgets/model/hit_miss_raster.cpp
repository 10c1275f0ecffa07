// SPDX-License-Identifier: GPL-3.0-or-later
#include "hit_miss_raster.h"

#include "run_trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace la {

double hitMissValue(const HitMissCell& cell) {
    if (cell.blocks == 0)
        return std::numeric_limits<double>::quiet_NaN();
    if (cell.waits > 0 && cell.misses > 0)
        return std::min(2.0, 1.0 + static_cast<double>(cell.waits) / static_cast<double>(cell.misses));
    return static_cast<double>(cell.misses) / static_cast<double>(cell.blocks);
}

bool HitMissRaster::update(const RunTrace& trace, const RasterKey& key, std::uint64_t budget) {
    const IndexRange inX = key.valid() ? positionsInX(trace, key.mode, key.x.lo, key.x.hi) : IndexRange{};
    const auto merge = [](HitMissCell& into, const HitMissCell& cell) {
        into.blocks += cell.blocks;
        into.misses += cell.misses;
        into.waits += cell.waits;
    };
    if (!beginUpdate(key, inX.first, inX.end, merge))
        return true;
    std::uint64_t work = 0;
    PositionWalker walker(trace, key.mode, m_cursor);
    while (m_cursor < inX.end && work < budget) {
        const std::uint64_t p = m_cursor++;
        const double x = walker.x();
        const double xNext = walker.advance();
        const double block = trace.blockAt(p);
        int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        ++work;
        if (!coveredCells(key.x, x, xNext, x0, x1) || !coveredCells(key.y, block, block + 1.0, y0, y1))
            continue;
        const std::uint8_t flags = trace.flagsAt(p);
        const std::uint32_t miss = (flags & event_flag::miss) ? 1 : 0;
        const std::uint32_t waited = (flags & event_flag::waited) ? 1 : 0;
        for (int cx = x0; cx <= x1; ++cx) {
            for (int cy = y0; cy <= y1; ++cy) {
                HitMissCell& cell = m_cells.at(cx, cy);
                ++cell.blocks;
                cell.misses += miss;
                cell.waits += waited;
            }
        }
        m_cells.touch(x0, x1);
        work += static_cast<std::uint64_t>(x1 - x0) * static_cast<std::uint64_t>(y1 - y0 + 1);
        markChanged();
    }
    return m_cursor >= inX.end;
}

} // namespace la

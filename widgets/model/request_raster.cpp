// SPDX-License-Identifier: GPL-3.0-or-later
#include "request_raster.h"

#include "run_trace.h"

#include <algorithm>

namespace la {

void readsInX(const RunTrace& trace, XAxis mode, double xLo, double xHi, std::size_t& first,
              std::size_t& end) {
    first = firstReadAtX(trace, mode, xLo);
    end = std::max(first, firstReadAtX(trace, mode, xHi));
}

bool RequestRaster::update(const RunTrace& trace, const RasterKey& key, std::uint64_t budget) {
    std::size_t first = 0;
    std::size_t end = 0;
    if (key.valid())
        readsInX(trace, key.mode, key.x.lo, key.x.hi, first, end);
    if (startOver(key, first))
        m_cells.reset(key);
    if (!key.valid())
        return true;
    std::uint64_t work = 0;
    while (m_cursor < end && work < budget) {
        const std::size_t r = m_cursor++;
        const ReadRecord read = trace.read(r);
        ++work;
        const int column = key.x.cellOf(xOfRead(trace, key.mode, r));
        int y0 = 0, y1 = 0;
        const double lo = read.block;
        const double hi = lo + std::max<double>(read.nblocks, 1.0);
        if (column < 0 || column >= key.x.cells || !coveredCells(key.y, lo, hi, y0, y1))
            continue;
        for (int y = y0; y <= y1; ++y) {
            std::uint8_t& cell = m_cells.at(column, y);
            cell = std::max(cell, read.nblocks);
        }
        work += static_cast<std::uint64_t>(y1 - y0);
        markChanged();
    }
    return m_cursor >= end;
}

} // namespace la

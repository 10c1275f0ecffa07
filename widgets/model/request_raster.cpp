// SPDX-License-Identifier: GPL-3.0-or-later
#include "request_raster.h"

#include "run_trace.h"

#include <algorithm>

namespace la {

bool RequestRaster::update(const RunTrace& trace, const RasterKey& key, std::uint64_t budget) {
    const IndexRange inX = key.valid() ? readsInX(trace, key.mode, key.x.lo, key.x.hi) : IndexRange{};
    const auto merge = [](std::uint8_t& into, std::uint8_t cell) { into = std::max(into, cell); };
    if (!beginUpdate(key, inX.first, inX.end, merge))
        return true;
    std::uint64_t work = 0;
    while (m_cursor < inX.end && work < budget) {
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
        m_cells.touch(column, column);
        work += static_cast<std::uint64_t>(y1 - y0);
        markChanged();
    }
    return m_cursor >= inX.end;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "request_plot.h"

#include "gradients.h"
#include "raster_support.h"
#include "run_trace.h"
#include "tooltips.h"

#include <algorithm>
#include <limits>

namespace la {

RequestPlot::RequestPlot(QWidget* parent)
    : RasterPlot(tr("Combined requests"), tr("file offset"), tr("read size"), parent) {
    scale()->setDataScaleType(QCPAxis::stLogarithmic);
    scale()->setGradient(sizeGradient());
}

void RequestPlot::prepare() {
    RasterPlot::prepare();
    int maxBlocks = 2;
    for (const RunTrace* trace : runs()) {
        maxBlocks = std::max(maxBlocks, trace->limits().ioCombineLimit);
        maxBlocks = std::max(maxBlocks, trace->largestRead());
    }
    // The panes' maps follow the scale's data range.
    scale()->setDataRange(QCPRange(1.0, maxBlocks));
    if (maxBlocks != m_tickedMaxBlocks) {
        useBlockSizeTicks(scale()->axis(), maxBlocks);
        m_tickedMaxBlocks = maxBlocks;
    }
}

Extent RequestPlot::blocksInView(const RunTrace& trace) const {
    const auto [first, end] = readsInX(trace, xMode(), xLo(), xHi());
    return trace.readExtent(first, end);
}

double RequestPlot::cellValue(const std::uint8_t& blocks) const {
    return blocks ? static_cast<double>(blocks) : std::numeric_limits<double>::quiet_NaN();
}

QString RequestPlot::tooltip(std::size_t run, const PixelRange& pixel) const {
    const std::optional<CellUnder> cell = cellUnder(run, pixel);
    // Only where a read is drawn: a read on a cell boundary belongs to the cell the raster put it in.
    if (!cell || raster(run).cells().at(cell->x, cell->y) == 0)
        return {};
    return requestTooltip(*runs()[run], xMode(), cell->xLo, cell->xHi, cell->blockLo, cell->blockHi);
}

} // namespace la

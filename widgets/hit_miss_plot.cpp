// SPDX-License-Identifier: GPL-3.0-or-later
#include "hit_miss_plot.h"

#include "gradients.h"
#include "raster_support.h"
#include "run_trace.h"
#include "tooltips.h"

namespace la {

HitMissPlot::HitMissPlot(QWidget* parent)
    : RasterPlot(tr("Hits and misses"), tr("block"), QString(), parent) {
    scale()->setDataRange(QCPRange(0.0, 2.0));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(0.0, tr("hit"));
    ticker->addTick(1.0, tr("miss"));
    ticker->addTick(2.0, tr("waited"));
    scale()->axis()->setTicker(ticker);
    applyTheme(); // before the first run too: the empty colour bar is the one a run shows
}

Extent HitMissPlot::blocksInView(const RunTrace& trace) const {
    const auto [first, end] = positionsInX(trace, xMode(), xLo(), xHi());
    return trace.blockExtent(first, end);
}

double HitMissPlot::cellValue(const HitMissCell& cell) const {
    return hitMissValue(cell);
}

QString HitMissPlot::tooltip(std::size_t run, const PixelRange& pixel) const {
    const std::optional<CellUnder> cell = cellUnder(run, pixel);
    if (!cell)
        return {};
    return hitMissTooltip(*runs()[run], xMode(), cell->xLo, cell->xHi, cell->blockLo, cell->blockHi,
                          raster(run).cells().at(cell->x, cell->y));
}

void HitMissPlot::applyTheme() {
    RasterPlot::applyTheme();
    // The panes' maps follow the scale's gradient.
    scale()->setGradient(hitMissGradient(theme()));
}

QString HitMissPlot::cannotDraw(const RunTrace& run) const {
    return run.observed()
               ? tr("A trace does not show cache hits,\nonly reads: see I/O sizes\nand combined requests")
               : QString();
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "hit_miss_plot.h"

#include "gradients.h"
#include "raster_support.h"
#include "run_trace.h"
#include "tooltips.h"

namespace la {

HitMissPlot::HitMissPlot(QWidget* parent) : PlotView(tr("Hits and misses"), parent) {
    setTitleAxis(tr("block"));
    m_scale = addSideColorScale(plot(), side(), QString());
    m_scale->setDataRange(QCPRange(0.0, 2.0));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(0.0, tr("hit"));
    ticker->addTick(1.0, tr("miss"));
    ticker->addTick(2.0, tr("waited"));
    m_scale->axis()->setTicker(ticker);
    applyTheme(); // before the first run too: the empty colour bar is the one a run shows
}

void HitMissPlot::createPane(std::size_t run) {
    if (m_panes.size() <= run)
        m_panes.resize(run + 1);
    Pane& p = m_panes[run];
    QCPAxisRect* rect = pane(run);
    addRasterPane(p, plot(), rect, m_scale, runName(run));
    p.map->setDataRange(QCPRange(0.0, 2.0));
    p.raster = HitMissRaster();
    rect->axis(QCPAxis::atLeft)->setLabel(tr("block"));
    useCompactTicks(rect->axis(QCPAxis::atLeft));
}

void HitMissPlot::destroyPanes() {
    for (const Pane& p : m_panes)
        removeRasterPane(plot(), p);
    m_panes.clear();
}

void HitMissPlot::prepare() {
    Extent visible;
    for (const RunTrace* trace : runs()) {
        std::uint64_t first = 0;
        std::uint64_t end = 0;
        positionsInX(*trace, xMode(), xLo(), xHi(), first, end);
        visible.add(trace->blockExtent(first, end));
    }
    fitBlockRange(visible, live(), m_yLo, m_yHi);
}

RasterKey HitMissPlot::keyFor(std::size_t run) const {
    return RasterKey{xMode(), AxisMap{xLo(), xHi(), paneColumns(run)}, AxisMap{m_yLo, m_yHi, paneRows(run)}};
}

bool HitMissPlot::binPane(std::size_t run, std::uint64_t budget) {
    return m_panes[run].raster.update(*runs()[run], keyFor(run), budget);
}

void HitMissPlot::publishPane(std::size_t run) {
    Pane& p = m_panes[run];
    pane(run)->axis(QCPAxis::atLeft)->setRange(m_yLo, m_yHi);
    if (p.raster.takeChanged()) {
        shapeColorMap(p.map, p.raster.key());
        const Grid<HitMissCell>& cells = p.raster.cells();
        QCPColorMapData* data = p.map->data();
        for (int y = 0; y < cells.ny(); ++y) {
            for (int x = 0; x < cells.nx(); ++x)
                data->setCell(x, y, hitMissValue(cells.at(x, y)));
        }
    }
}

QString HitMissPlot::tooltip(std::size_t run, const PixelRange& pixel) const {
    const HitMissRaster& raster = m_panes[run].raster;
    const RasterKey& key = raster.key();
    const double x = (pixel.xLo + pixel.xHi) / 2;
    const double y = (pixel.yLo + pixel.yHi) / 2;
    const int cx = key.x.cellOf(x);
    const int cy = key.y.cellOf(y);
    if (cx < 0 || cy < 0 || cx >= raster.cells().nx() || cy >= raster.cells().ny())
        return {};
    return hitMissTooltip(*runs()[run], xMode(), key.x.cellStart(cx), key.x.cellStart(cx + 1),
                          key.y.cellStart(cy), key.y.cellStart(cy + 1), raster.cells().at(cx, cy));
}

void HitMissPlot::applyTheme() {
    m_scale->setGradient(hitMissGradient(theme()));
    m_scale->axis()->setTickLabelColor(theme().text);
    m_scale->axis()->setBasePen(QPen(theme().axis));
    for (Pane& p : m_panes) {
        p.map->setGradient(hitMissGradient(theme()));
        p.runLabel->setColor(theme().text);
    }
}

QString HitMissPlot::cannotDraw(const RunTrace& run) const {
    return run.observed() ? tr("A syscall trace does not show cache hits, only reads:\nsee I/O sizes and "
                               "combined requests")
                          : QString();
}

} // namespace la

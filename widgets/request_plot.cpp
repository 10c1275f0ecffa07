// SPDX-License-Identifier: GPL-3.0-or-later
#include "request_plot.h"

#include "gradients.h"
#include "raster_support.h"
#include "run_trace.h"
#include "tooltips.h"

#include <algorithm>
#include <limits>

namespace la {

RequestPlot::RequestPlot(QWidget* parent) : PlotView(tr("Combined requests"), parent) {
    setTitleAxis(tr("file offset"));
    m_scale = addSideColorScale(plot(), side(), tr("read size"));
    m_scale->setDataScaleType(QCPAxis::stLogarithmic);
    m_scale->setGradient(sizeGradient());
}

void RequestPlot::createPane(std::size_t run) {
    if (m_panes.size() <= run)
        m_panes.resize(run + 1);
    Pane& p = m_panes[run];
    QCPAxisRect* rect = pane(run);
    addRasterPane(p, plot(), rect, m_scale, runName(run));
    p.raster = RequestRaster();
    rect->axis(QCPAxis::atLeft)->setLabel(tr("block"));
    useCompactTicks(rect->axis(QCPAxis::atLeft));
}

void RequestPlot::destroyPanes() {
    for (const Pane& p : m_panes)
        removeRasterPane(plot(), p);
    m_panes.clear();
}

void RequestPlot::prepare() {
    Extent visible;
    m_maxBlocks = 2;
    for (const RunTrace* trace : runs()) {
        std::size_t first = 0;
        std::size_t end = 0;
        readsInX(*trace, xMode(), xLo(), xHi(), first, end);
        visible.add(trace->readExtent(first, end));
        m_maxBlocks = std::max(m_maxBlocks, trace->limits().ioCombineLimit);
        m_maxBlocks = std::max(m_maxBlocks, trace->largestRead());
    }
    fitBlockRange(visible, live(), m_yLo, m_yHi);
    m_scale->setDataRange(QCPRange(1.0, m_maxBlocks));
    if (m_maxBlocks != m_tickedMaxBlocks) {
        useBlockSizeTicks(m_scale->axis(), m_maxBlocks);
        m_tickedMaxBlocks = m_maxBlocks;
    }
}

RasterKey RequestPlot::keyFor(std::size_t run) const {
    return RasterKey{xMode(), AxisMap{xLo(), xHi(), paneColumns(run)}, AxisMap{m_yLo, m_yHi, paneRows(run)}};
}

bool RequestPlot::binPane(std::size_t run, std::uint64_t budget) {
    return m_panes[run].raster.update(*runs()[run], keyFor(run), budget);
}

void RequestPlot::publishPane(std::size_t run) {
    Pane& p = m_panes[run];
    pane(run)->axis(QCPAxis::atLeft)->setRange(m_yLo, m_yHi);
    if (p.raster.takeChanged()) {
        shapeColorMap(p.map, p.raster.key());
        const Grid<std::uint8_t>& cells = p.raster.cells();
        QCPColorMapData* data = p.map->data();
        constexpr double empty = std::numeric_limits<double>::quiet_NaN();
        for (int y = 0; y < cells.ny(); ++y) {
            for (int x = 0; x < cells.nx(); ++x) {
                const std::uint8_t blocks = cells.at(x, y);
                data->setCell(x, y, blocks ? static_cast<double>(blocks) : empty);
            }
        }
    }
    p.map->setDataRange(QCPRange(1.0, m_maxBlocks));
}

QString RequestPlot::tooltip(std::size_t run, const PixelRange& pixel) const {
    const RasterKey& key = m_panes[run].raster.key();
    const int cx = key.x.cellOf((pixel.xLo + pixel.xHi) / 2);
    const int cy = key.y.cellOf((pixel.yLo + pixel.yHi) / 2);
    // Only where a read is drawn: a read on a cell boundary belongs to the cell the raster put it in.
    if (cx < 0 || cy < 0 || cx >= key.x.cells || cy >= key.y.cells ||
        m_panes[run].raster.cells().at(cx, cy) == 0)
        return {};
    return requestTooltip(*runs()[run], xMode(), key.x.cellStart(cx), key.x.cellStart(cx + 1),
                          key.y.cellStart(cy), key.y.cellStart(cy + 1));
}

void RequestPlot::applyTheme() {
    m_scale->axis()->setTickLabelColor(theme().text);
    m_scale->axis()->setLabelColor(theme().text);
    m_scale->axis()->setBasePen(QPen(theme().axis));
    for (Pane& p : m_panes) {
        p.runLabel->setColor(theme().text);
    }
}

} // namespace la

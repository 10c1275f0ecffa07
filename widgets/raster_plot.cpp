// SPDX-License-Identifier: GPL-3.0-or-later
#include "raster_plot.h"

#include "raster_support.h"
#include "run_trace.h"

namespace la {

template <typename Raster>
RasterPlot<Raster>::RasterPlot(const QString& title, const QString& yNoun, const QString& scaleLabel,
                               QWidget* parent)
    : PlotView(title, parent) {
    setTitleAxis(yNoun);
    m_scale = addSideColorScale(plot(), side(), scaleLabel);
}

template <typename Raster> void RasterPlot<Raster>::createPane(std::size_t run) {
    Pane& p = m_panes.emplace_back();
    QCPAxisRect* rect = pane(run);
    p.map = addColorMap(rect, m_scale);
    rect->axis(QCPAxis::atLeft)->setLabel(tr("block"));
    useCompactTicks(rect->axis(QCPAxis::atLeft));
    p.binning = addBinningLine(plot(), rect);
}

template <typename Raster> void RasterPlot<Raster>::destroyPanes() {
    for (const Pane& p : m_panes) {
        plot()->removePlottable(p.map);
        plot()->removeItem(p.binning);
    }
    m_panes.clear();
}

template <typename Raster> void RasterPlot<Raster>::prepare() {
    Extent visible;
    for (const RunTrace* trace : runs())
        visible.add(blocksInView(*trace));
    fitBlockRange(visible, live(), m_yLo, m_yHi);
}

template <typename Raster> RasterKey RasterPlot<Raster>::keyFor(std::size_t run) const {
    const PaneGrid& g = grid(run);
    return RasterKey{g.mode, AxisMap{g.xLo, g.xHi, g.columns}, AxisMap{m_yLo, m_yHi, g.rows}};
}

template <typename Raster> bool RasterPlot<Raster>::binPane(std::size_t run, std::uint64_t budget) {
    return m_panes[run].raster.update(*runs()[run], keyFor(run), budget);
}

template <typename Raster> void RasterPlot<Raster>::publishPane(std::size_t run) {
    Pane& p = m_panes[run];
    pane(run)->axis(QCPAxis::atLeft)->setRange(m_yLo, m_yHi);
    // A redraw for a new x range (a zoom, Reset zoom) of a long run takes a while: the image of the
    // last range stays, drawn where it belongs on the new axes (the map keeps its own range), and a
    // thin line across the top of the pane shows how far the new one is, until it is complete. A
    // live run draws as it bins.
    const bool holding = p.shown && !live() && p.raster.redrawing();
    showBinning(p.binning, holding ? p.raster.progress() : -1.0);
    if (holding || !p.raster.takeChanged())
        return;
    p.shown = true;
    shapeColorMap(p.map, p.raster.key());
    const Grid<Cell>& cells = p.raster.cells();
    QCPColorMapData* data = p.map->data();
    const auto [first, end] = p.raster.takeTouched();
    for (int y = 0; y < cells.ny(); ++y) {
        for (int x = first; x < end; ++x)
            data->setCell(x, y, cellValue(cells.at(x, y)));
    }
}

template <typename Raster> bool RasterPlot<Raster>::binningShown(std::size_t run) const {
    return run < m_panes.size() && m_panes[run].binning->visible();
}

template <typename Raster> void RasterPlot<Raster>::applyTheme() {
    for (const Pane& p : m_panes)
        p.binning->setPen(QPen(theme().text, 2.0));
    m_scale->axis()->setTickLabelColor(theme().text);
    m_scale->axis()->setLabelColor(theme().text);
    m_scale->axis()->setBasePen(QPen(theme().axis));
}

template <typename Raster>
std::optional<typename RasterPlot<Raster>::CellUnder>
RasterPlot<Raster>::cellUnder(std::size_t run, const PixelRange& pixel) const {
    const Raster& r = m_panes[run].raster;
    const RasterKey& key = r.key();
    const int cx = key.x.cellOf((pixel.xLo + pixel.xHi) / 2);
    const int cy = key.y.cellOf((pixel.yLo + pixel.yHi) / 2);
    if (cx < 0 || cy < 0 || cx >= r.cells().nx() || cy >= r.cells().ny())
        return std::nullopt;
    return CellUnder{
        cx, cy, key.x.cellStart(cx), key.x.cellStart(cx + 1), key.y.cellStart(cy), key.y.cellStart(cy + 1)};
}

template class RasterPlot<HitMissRaster>;
template class RasterPlot<RequestRaster>;

} // namespace la

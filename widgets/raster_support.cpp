// SPDX-License-Identifier: GPL-3.0-or-later
#include "raster_support.h"

#include "plot_view.h"

#include <bit>
#include <cstdint>

namespace la {

void fitBlockRange(const Extent& visible, bool live, double& lo, double& hi) {
    if (visible.empty()) {
        lo = 0.0;
        hi = 1.0;
        return;
    }
    if (live) {
        lo = 0.0;
        hi = static_cast<double>(std::bit_ceil(static_cast<std::uint64_t>(visible.hi)));
        return;
    }
    lo = visible.lo;
    hi = visible.hi;
}

void shapeColorMap(QCPColorMap* map, const RasterKey& key) {
    QCPColorMapData* data = map->data();
    const double dx = key.x.cellWidth();
    const double dy = key.y.cellWidth();
    data->setSize(key.x.cells, key.y.cells);
    data->setRange(QCPRange(key.x.lo + dx / 2, key.x.hi - dx / 2),
                   QCPRange(key.y.lo + dy / 2, key.y.hi - dy / 2));
}

QCPItemText* addRunLabel(QCustomPlot* plot, QCPAxisRect* rect, const QString& text) {
    auto* label = new QCPItemText(plot);
    // In the pane's top margin, above the plot area: it never hides data.
    label->setClipToAxisRect(false);
    label->position->setAxisRect(rect);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.0, 0.0);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->setText(text);
    QFont font = label->font();
    font.setPixelSize(11);
    font.setBold(true);
    label->setFont(font);
    label->setPadding(QMargins(0, 1, 3, 2));
    label->setLayer(QStringLiteral("legend"));
    return label;
}

QCPColorScale* addSideColorScale(QCustomPlot* plot, QCPLayoutGrid* side, const QString& label) {
    auto* scale = new QCPColorScale(plot);
    side->addElement(0, 0, scale);
    scale->setType(QCPAxis::atRight);
    scale->setBarWidth(12);
    scale->setRangeDrag(false);
    scale->setRangeZoom(false);
    scale->setLabel(label);
    scale->setAutoMargins(QCP::msNone);
    scale->setMargins(PlotView::paneMargins(10, 0));
    QFont font;
    font.setPixelSize(10);
    scale->axis()->setTickLabelFont(font);
    scale->axis()->setLabelFont(font);
    return scale;
}

void addRasterPane(RasterPane& pane, QCustomPlot* plot, QCPAxisRect* rect, QCPColorScale* scale,
                   const QString& runName) {
    pane.map = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    pane.map->setInterpolate(false);
    // Antialiased, QCPPainter shifts by half a pixel, which moved every cell a pixel off the one its
    // tooltip describes; cells are pixel-aligned and need no antialiasing.
    pane.map->setAntialiased(false);
    pane.map->setTightBoundary(false);
    pane.map->setColorScale(scale);
    pane.runLabel = addRunLabel(plot, rect, runName);
}

void removeRasterPane(QCustomPlot* plot, const RasterPane& pane) {
    plot->removePlottable(pane.map);
    plot->removeItem(pane.runLabel);
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "raster_support.h"

#include "plot_view.h"

#include <algorithm>
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

QCPColorMap* addColorMap(QCPAxisRect* rect, QCPColorScale* scale) {
    auto* map = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    map->setInterpolate(false);
    // Antialiased, QCPPainter shifts by half a pixel, which moved every cell a pixel off the one its
    // tooltip describes; cells are pixel-aligned and need no antialiasing.
    map->setAntialiased(false);
    map->setTightBoundary(false);
    map->setColorScale(scale);
    return map;
}

QCPItemLine* addBinningLine(QCustomPlot* plot, QCPAxisRect* rect) {
    auto* line = new QCPItemLine(plot);
    for (QCPItemPosition* end : {line->start, line->end}) {
        end->setType(QCPItemPosition::ptAxisRectRatio);
        end->setAxisRect(rect);
    }
    line->setClipAxisRect(rect);
    line->setVisible(false);
    return line;
}

void showBinning(QCPItemLine* line, double fraction) {
    line->setVisible(fraction >= 0.0);
    if (fraction < 0.0)
        return;
    // Inside the top edge, at least a few pixels long so that it is seen from the start.
    line->start->setCoords(0.0, 0.004);
    line->end->setCoords(std::clamp(fraction, 0.02, 1.0), 0.004);
}

} // namespace la

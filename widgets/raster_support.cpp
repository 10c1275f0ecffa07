// SPDX-License-Identifier: GPL-3.0-or-later
#include "raster_support.h"

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
    label->setClipAxisRect(rect);
    label->position->setAxisRect(rect);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.01, 0.03);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setText(text);
    QFont font = label->font();
    font.setPixelSize(11);
    font.setBold(true);
    label->setFont(font);
    label->setPadding(QMargins(3, 1, 3, 1));
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
    scale->setMargins(QMargins(10, 6, 0, 36));
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
    pane.map->setTightBoundary(false);
    pane.map->setColorScale(scale);
    pane.runLabel = addRunLabel(plot, rect, runName);
}

void removeRasterPane(QCustomPlot* plot, const RasterPane& pane) {
    plot->removePlottable(pane.map);
    plot->removeItem(pane.runLabel);
}

} // namespace la

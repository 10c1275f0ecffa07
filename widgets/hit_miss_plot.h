// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "raster_plot.h"

namespace la {

// Which block was handed out when: a block × x raster binned per pixel, coloured from hit through
// miss to waited-for miss by density, so it stays readable at millions of blocks.
class HitMissPlot : public RasterPlot<HitMissRaster> {
    Q_OBJECT
public:
    explicit HitMissPlot(QWidget* parent = nullptr);

protected:
    Extent blocksInView(const RunTrace& trace) const override;
    double cellValue(const HitMissCell& cell) const override;
    QString tooltip(std::size_t run, const PixelRange& pixel) const override;
    QString cannotDraw(const RunTrace& run) const override;
    void applyTheme() override;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "raster_plot.h"

namespace la {

// Seekwatcher-style: file offset (block) against x, each read a vertical segment over the blocks it
// covered, coloured by size, so forward combining and the backward flood of 8 kB reads both show.
class RequestPlot : public RasterPlot<RequestRaster> {
    Q_OBJECT
public:
    explicit RequestPlot(QWidget* parent = nullptr);

protected:
    void prepare() override;
    Extent blocksInView(const RunTrace& trace) const override;
    double cellValue(const std::uint8_t& blocks) const override;
    QString tooltip(std::size_t run, const PixelRange& pixel) const override;

private:
    int m_tickedMaxBlocks = 0;
};

} // namespace la

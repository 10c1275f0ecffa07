// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plot_view.h"
#include "raster_pane.h"
#include "request_raster.h"

#include <vector>

class QCPColorScale;

namespace la {

// Seekwatcher-style: file offset (block) against x, each read a vertical segment over the blocks it
// covered, coloured by size, so forward combining and the backward flood of 8 kB reads both show.
class RequestPlot : public PlotView {
    Q_OBJECT
public:
    explicit RequestPlot(QWidget* parent = nullptr);

protected:
    void createPane(std::size_t run) override;
    void destroyPanes() override;
    void prepare() override;
    bool binPane(std::size_t run, std::uint64_t budget) override;
    void publishPane(std::size_t run) override;
    QString tooltip(std::size_t run, const PixelRange& pixel) const override;
    void applyTheme() override;

private:
    struct Pane : RasterPane {
        RequestRaster raster;
    };
    RasterKey keyFor(std::size_t run) const;

    std::vector<Pane> m_panes;
    QCPColorScale* m_scale = nullptr;
    double m_yLo = 0.0;
    double m_yHi = 1.0;
    int m_maxBlocks = 16;
    int m_tickedMaxBlocks = 0;
};

} // namespace la

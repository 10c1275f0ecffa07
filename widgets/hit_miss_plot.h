// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hit_miss_raster.h"
#include "plot_view.h"
#include "raster_pane.h"

#include <vector>

class QCPColorScale;

namespace la {

// Which block was handed out when: a block × x raster binned per pixel, coloured from hit through
// miss to waited-for miss by density, so it stays readable at millions of blocks.
class HitMissPlot : public PlotView {
    Q_OBJECT
public:
    explicit HitMissPlot(QWidget* parent = nullptr);

protected:
    void createPane(std::size_t run) override;
    void destroyPanes() override;
    void prepare() override;
    bool binPane(std::size_t run, std::uint64_t budget) override;
    void publishPane(std::size_t run) override;
    QString tooltip(std::size_t run, const PixelRange& pixel) const override;
    QString cannotDraw(const RunTrace& run) const override;
    void applyTheme() override;

private:
    struct Pane : RasterPane {
        HitMissRaster raster;
    };
    RasterKey keyFor(std::size_t run) const;

    std::vector<Pane> m_panes;
    QCPColorScale* m_scale = nullptr;
    double m_yLo = 0.0;
    double m_yHi = 1.0;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "grid.h"
#include "hit_miss_raster.h"
#include "plot_view.h"
#include "request_raster.h"

#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPItemLine;

namespace la {

struct Extent;

// A view that draws each run as a block × x raster binned per pixel (HitMissRaster, RequestRaster):
// a colour map per pane, coloured through one colour scale in the side column, over a block range
// shared by A and B. Subclasses say which blocks are in view and how a cell is coloured.
template <typename Raster> class RasterPlot : public PlotView {
public:
    using Cell = std::remove_cvref_t<decltype(std::declval<const Raster&>().cells().at(0, 0))>;

    // Whether pane `run` shows that it is still binning (its thin progress line), its last image
    // standing in meanwhile.
    bool binningShown(std::size_t run) const;

protected:
    // `yNoun` names the y axis in the title; `scaleLabel` the colour scale.
    RasterPlot(const QString& title, const QString& yNoun, const QString& scaleLabel, QWidget* parent);

    // The blocks of `trace` the raster draws in the x range in view.
    virtual Extent blocksInView(const RunTrace& trace) const = 0;
    // A cell's value on the colour scale; NaN leaves it empty.
    virtual double cellValue(const Cell& cell) const = 0;

    void createPane(std::size_t run) override;
    void destroyPanes() override;
    void prepare() override;
    bool binPane(std::size_t run, std::uint64_t budget) override;
    void publishPane(std::size_t run) override;
    // Colours the scale's axis; a subclass adds what its scale shows.
    void applyTheme() override;

    // A raster cell and the x and block range it covers.
    struct CellUnder {
        int x;
        int y;
        double xLo;
        double xHi;
        double blockLo;
        double blockHi;
    };
    // The cell of run `run`'s raster under the middle of `pixel`, if the raster has one there.
    std::optional<CellUnder> cellUnder(std::size_t run, const PixelRange& pixel) const;
    const Raster& raster(std::size_t run) const { return m_panes[run].raster; }
    QCPColorScale* scale() const { return m_scale; }

private:
    struct Pane {
        QCPColorMap* map = nullptr;
        Raster raster;
        QCPItemLine* binning = nullptr; // the progress of a redraw, across the top of the pane
        bool shown = false;             // the map holds an image (of the last key, while redrawing)
    };
    RasterKey keyFor(std::size_t run) const;

    std::vector<Pane> m_panes;
    QCPColorScale* m_scale = nullptr;
    double m_yLo = 0.0;
    double m_yHi = 1.0;
};

// The views built on it (instantiated in raster_plot.cpp, where the members are defined).
extern template class RasterPlot<HitMissRaster>;
extern template class RasterPlot<RequestRaster>;

} // namespace la

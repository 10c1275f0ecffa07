// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plot_theme.h"
#include "sweep_grid.h"

#include <QWidget>

#include <optional>

class QCPAxisRect;
class QCustomPlot;
class QPaintDevice;

namespace la {

// A cell of a sweep map: which policy's map, which column and row.
struct SweepCell {
    std::size_t policy = 0;
    std::size_t x = 0;
    std::size_t y = 0;
};

// Heat maps of one sweep metric (QCPColorMap), one per policy side by side on a shared colour scale,
// axes titled with the options' units. Hovering reports the cell under the cursor, clicking chooses it.
class SweepMapView : public QWidget {
    Q_OBJECT
public:
    explicit SweepMapView(QWidget* parent = nullptr);

    // Draws `grid`; `onlyPolicy` >= 0 draws that policy's map alone (on the same colour range).
    void setGrid(const SweepGrid& grid, int onlyPolicy = -1);
    const SweepGrid& grid() const { return m_grid; }
    std::optional<SweepCell> cellAt(QPoint widgetPos) const;
    // The map's centre of a cell in widget coordinates (tests hover and click there).
    QPoint cellCentre(const SweepCell& cell) const;
    // Draws the maps at `size` with the export theme onto `device` (an image, an SVG generator).
    void paint(QPaintDevice& device, QSize size);
    // The widget that takes the mouse (tests click on it).
    QWidget* plotWidget() const;

signals:
    void cellHovered(la::SweepCell cell, QPoint globalPos);
    void cellClicked(la::SweepCell cell);

private:
    void rebuild(const PlotTheme& theme);
    void markWithinNoise(QCPAxisRect* rect, std::size_t policy, const PlotTheme& theme);
    bool eventFilter(QObject* watched, QEvent* event) override;

    QCustomPlot* m_plot = nullptr;
    SweepGrid m_grid;
    std::vector<std::size_t> m_shown; // the policies drawn, in order
};

} // namespace la

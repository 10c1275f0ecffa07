// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the raster views (private to the widgets: include from .cpp files only).
#include "extent_index.h"
#include "grid.h"
#include "qcp.h"

#include <QString>

namespace la {

// The block range a raster's y axis shows for the visible data: exact when the run is complete; while
// live, [0, next power of two) so a growing scan re-bins only a handful of times.
void fitBlockRange(const Extent& visible, bool live, double& lo, double& hi);

// Sizes the map to the key's grid; cell centres, as QCPColorMapData expects.
void shapeColorMap(QCPColorMap* map, const RasterKey& key);

// A colour map on the pane's axes, coloured through `scale`: it takes the scale's data range and
// gradient, and follows them from then on.
QCPColorMap* addColorMap(QCPAxisRect* rect, QCPColorScale* scale);

// A thin line across the top of a pane that shows how far a redraw is: hidden until showBinning()
// gives it a fraction (0..1); a negative one hides it.
QCPItemLine* addBinningLine(QCustomPlot* plot, QCPAxisRect* rect);
void showBinning(QCPItemLine* line, double fraction);

// A colour scale for the side column, lined up with the panes' fixed margins.
QCPColorScale* addSideColorScale(QCustomPlot* plot, QCPLayoutGrid* side, const QString& label);

} // namespace la

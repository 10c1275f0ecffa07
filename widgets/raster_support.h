// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the raster views (private to the widgets: include from .cpp files only).
#include "extent_index.h"
#include "grid.h"
#include "qcp.h"
#include "raster_pane.h"

#include <QString>

namespace la {

// The block range a raster's y axis shows for the visible data: exact when the run is complete; while
// live, [0, next power of two) so a growing scan re-bins only a handful of times.
void fitBlockRange(const Extent& visible, bool live, double& lo, double& hi);

// Sizes the map to the key's grid; cell centres, as QCPColorMapData expects.
void shapeColorMap(QCPColorMap* map, const RasterKey& key);

// A run's name above the top-left corner of its pane's plot area.
QCPItemText* addRunLabel(QCustomPlot* plot, QCPAxisRect* rect, const QString& text);

// Fills `pane` with a colour map on the pane's axes, coloured by `scale`, and the run's name.
void addRasterPane(RasterPane& pane, QCustomPlot* plot, QCPAxisRect* rect, QCPColorScale* scale,
                   const QString& runName);
void removeRasterPane(QCustomPlot* plot, const RasterPane& pane);

// A colour scale for the side column, lined up with the panes' fixed margins.
QCPColorScale* addSideColorScale(QCustomPlot* plot, QCPLayoutGrid* side, const QString& label);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Colour scales shared by several views (private to the widgets: include from .cpp files only).
#include "plot_theme.h"
#include "qcp.h"

namespace la {

// Hit (0) → miss (1) → waited-for miss (2), transparent where nothing was handed out.
QCPColorGradient hitMissGradient(const PlotTheme& theme);
// Read size in blocks on a log scale: the 8 kB flood in blue, full combined reads in red.
QCPColorGradient sizeGradient();
// The colour sizeGradient() gives a read of `blocks` when the largest possible read is `maxBlocks`.
QColor sizeColour(int blocks, int maxBlocks);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QCPColorMap;
class QCPItemText;

namespace la {

// What every raster view draws in a run's pane: a colour map and the run's name.
struct RasterPane {
    QCPColorMap* map = nullptr;
    QCPItemText* runLabel = nullptr;
};

} // namespace la

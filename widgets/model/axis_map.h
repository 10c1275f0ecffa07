// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>

namespace la {

// A value range cut into `cells` equal cells (pixel columns or rows). Every per-pixel reduction and
// every tooltip uses it, so a bin in a view and the numbers shown for it always cover the same values.
struct AxisMap {
    double lo = 0.0;
    double hi = 1.0;
    int cells = 1;

    bool valid() const { return cells > 0 && hi > lo && std::isfinite(lo) && std::isfinite(hi); }
    double cellWidth() const { return (hi - lo) / cells; }
    // The cell holding `value`: -1 left of the range, `cells` at or right of its end.
    int cellOf(double value) const {
        const double f = (value - lo) / (hi - lo) * cells;
        if (!(f >= 0.0))
            return -1;
        if (f >= cells)
            return cells;
        return static_cast<int>(f);
    }
    double cellStart(int cell) const { return lo + (hi - lo) * cell / cells; }
    double cellCentre(int cell) const { return lo + (hi - lo) * (cell + 0.5) / cells; }
    bool operator==(const AxisMap&) const = default;
};

} // namespace la

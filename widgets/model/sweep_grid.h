// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace la {

// One metric of a sweep laid out for heat maps: a map per policy, the first axis across and the
// second (if any) up, every map on one colour scale. NaN marks a cell without a value.
struct SweepGrid {
    std::string title;  // the metric, for the colour scale
    std::string xTitle; // "miss fraction (%)"
    std::string yTitle; // empty for a one-axis sweep
    std::vector<std::string> xLabels, yLabels;
    std::vector<std::string> policies;
    std::vector<std::vector<double>> values; // [policy][y * columns() + x]
    // [policy][y * columns() + x]: the policy's repeated runs do not differ from the baseline's beyond
    // noise (docs/repeats.md), marked on the map; empty when nothing was repeated.
    std::vector<std::vector<char>> withinNoise;

    std::size_t columns() const { return xLabels.size(); }
    std::size_t rows() const { return yLabels.empty() ? 1 : yLabels.size(); }
    double at(std::size_t policy, std::size_t x, std::size_t y) const {
        return values[policy][y * columns() + x];
    }
    // The smallest and largest value over every map (0..1 if there are none).
    void range(double& lo, double& hi) const {
        lo = HUGE_VAL;
        hi = -HUGE_VAL;
        for (const auto& map : values)
            for (const double v : map)
                if (!std::isnan(v)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
        if (lo > hi) {
            lo = 0.0;
            hi = 1.0;
        }
        if (lo == hi)
            hi = lo + 1.0;
    }
};

} // namespace la

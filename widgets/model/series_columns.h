// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "progressive_cells.h"
#include "state_buckets.h"

#include <array>
#include <cstdint>
#include <vector>

namespace la {

class RunTrace;

// A polyline ready to draw as-is (x never decreases; equal x values draw vertical strokes).
struct Polyline {
    std::vector<double> x;
    std::vector<double> y;

    void add(double px, double py) {
        if (!x.empty() && x.back() == px && y.back() == py)
            return;
        x.push_back(px);
        y.push_back(py);
    }
    std::size_t size() const { return x.size(); }
};

// The state series binned per pixel column: a column keeps each series' min/max over the buckets
// drawn in it (a bucket wider than a column fills every column it covers), so nothing the data holds
// is lost at any zoom and no more than three points per column are ever drawn (which keeps HiDPI
// exports fast). Progressive like the rasters, and incremental while a run grows.
struct SeriesColumn {
    std::array<std::uint16_t, kStateSeriesCount> lo;
    std::array<std::uint16_t, kStateSeriesCount> hi;
    bool used = false;
};
class SeriesColumns : public ProgressiveColumns<SeriesColumn, std::uint64_t> {
public:
    using Key = ColumnKey;

    // Bins at most `budget` more buckets for `key` (starting over if it changed); true when complete.
    bool update(const RunTrace& trace, const Key& key, std::uint64_t budget);
    // A step line through the columns: horizontal where a column holds one value, a vertical stroke
    // over its min..max where it holds several.
    Polyline polyline(StateSeries series) const;
    // Largest value of `series` in the columns binned so far (the visible x range), 0 if none.
    std::uint16_t maxValue(StateSeries series) const;

private:
    // The positions binned in full for the key: the last bucket is binned again (it may still grow)
    // only once positions past this arrive.
    std::uint64_t m_binnedEnd = 0;
};

} // namespace la

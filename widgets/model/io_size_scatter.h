// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "axis_map.h"
#include "x_mapping.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace la {

class RunTrace;

// Read sizes per pixel column: which sizes (in blocks, 1..255) were issued in each column. A column
// holds a bit per size, so a million reads cost no more to draw than one per size and column.
// Progressive like the rasters.
class IoSizeScatter {
public:
    struct Key {
        XAxis mode = XAxis::Time;
        AxisMap x;
        bool operator==(const Key&) const = default;
    };
    struct Point {
        double x;
        int blocks;
    };

    bool update(const RunTrace& trace, const Key& key, std::uint64_t budget);
    bool takeChanged();
    // One point per (column, size) present, at the column centre, ordered by x.
    std::vector<Point> points() const;

private:
    using SizeBits = std::array<std::uint64_t, 4>;
    Key m_key;
    std::vector<SizeBits> m_columns;
    std::size_t m_cursor = 0;
    bool m_started = false;
    bool m_changed = false;
};

} // namespace la

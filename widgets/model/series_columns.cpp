// SPDX-License-Identifier: GPL-3.0-or-later
#include "series_columns.h"

#include "run_trace.h"

#include <algorithm>

namespace la {

bool SeriesColumns::update(const RunTrace& trace, const Key& key, std::uint64_t budget) {
    const IndexRange inX = key.x.valid() ? positionsInX(trace, key.mode, key.x.lo, key.x.hi) : IndexRange{};
    const auto merge = [](SeriesColumn& into, const SeriesColumn& column) {
        if (!column.used)
            return;
        for (std::size_t s = 0; s < kStateSeriesCount; ++s) {
            into.lo[s] = into.used ? std::min(into.lo[s], column.lo[s]) : column.lo[s];
            into.hi[s] = into.used ? std::max(into.hi[s], column.hi[s]) : column.hi[s];
        }
        into.used = true;
    };
    if (beginUpdate(key, inX.first, merge))
        m_binnedEnd = 0;
    const StateBuckets& state = trace.state();
    // Nothing new since the last bucket was binned in full: said without binning it again.
    if (!key.x.valid() || state.size() == 0 || m_binnedEnd >= inX.end)
        return true;
    // Bucket min/max only grow as a bucket fills or merges with its neighbour, so binning a bucket
    // again is harmless: that is how the last, still growing, bucket is kept up to date.
    std::size_t b = state.bucketOf(m_cursor);
    const std::size_t bEnd = inX.empty() ? 0 : std::min(state.size(), state.bucketOf(inX.end - 1) + 1);
    std::uint64_t work = 0;
    for (; b < bEnd && work < budget; ++b, ++work) {
        const double x0 = bucketX(trace, key.mode, b);
        const double x1 = bucketX(trace, key.mode, b + 1);
        int c0 = 0, c1 = 0;
        if (!coveredCells(key.x, x0, x1, c0, c1))
            continue;
        for (int c = c0; c <= c1; ++c) {
            SeriesColumn& column = m_columns[static_cast<std::size_t>(c)];
            for (std::size_t s = 0; s < kStateSeriesCount; ++s) {
                const std::uint16_t lo = state.lo(static_cast<StateSeries>(s), b);
                const std::uint16_t hi = state.hi(static_cast<StateSeries>(s), b);
                column.lo[s] = column.used ? std::min(column.lo[s], lo) : lo;
                column.hi[s] = column.used ? std::max(column.hi[s], hi) : hi;
            }
            column.used = true;
        }
        work += static_cast<std::uint64_t>(c1 - c0);
        markChanged();
    }
    const bool complete = b >= bEnd;
    m_cursor = state.bucketStart(complete && b > 0 ? b - 1 : b);
    if (complete)
        m_binnedEnd = inX.end;
    return complete;
}

std::uint16_t SeriesColumns::maxValue(StateSeries series) const {
    const auto s = static_cast<std::size_t>(series);
    std::uint16_t result = 0;
    for (const SeriesColumn& column : m_columns)
        result = column.used ? std::max(result, column.hi[s]) : result;
    return result;
}

Polyline SeriesColumns::polyline(StateSeries series) const {
    Polyline line;
    const auto s = static_cast<std::size_t>(series);
    for (std::size_t c = 0; c < m_columns.size(); ++c) {
        const SeriesColumn& column = m_columns[c];
        if (!column.used)
            continue;
        const double xs = key().x.cellStart(static_cast<int>(c));
        const double xe = key().x.cellStart(static_cast<int>(c) + 1);
        line.add(xs, column.lo[s]);
        if (column.hi[s] != column.lo[s])
            line.add(xs, column.hi[s]);
        line.add(xe, column.hi[s]);
    }
    return line;
}

} // namespace la

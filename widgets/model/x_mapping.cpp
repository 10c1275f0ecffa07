// SPDX-License-Identifier: GPL-3.0-or-later
#include "x_mapping.h"

#include "run_trace.h"

#include <algorithm>
#include <cmath>

namespace la {

namespace {
constexpr double kNsPerSecond = 1e9;
}

double xOfPosition(const RunTrace& trace, XAxis mode, double position) {
    return mode == XAxis::Position ? position : trace.timeNsAt(position) / kNsPerSecond;
}

double positionAtX(const RunTrace& trace, XAxis mode, double x) {
    return mode == XAxis::Position ? x : trace.positionAtTimeNs(x * kNsPerSecond);
}

double xOfRead(const RunTrace& trace, XAxis mode, std::size_t index) {
    return mode == XAxis::Position ? static_cast<double>(trace.readPosition(index))
                                   : static_cast<double>(trace.readStartNs(index)) / kNsPerSecond;
}

std::size_t firstReadAtX(const RunTrace& trace, XAxis mode, double x) {
    const auto firstNotBelow = [&](std::size_t lo, std::size_t hi, std::size_t step) {
        while (lo < hi) {
            const std::size_t mid = (lo + hi) / 2;
            if (xOfRead(trace, mode, mid * step) < x)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    };
    // Over the chunks' first reads, which stay in memory when the reads are on disk, then inside
    // the one chunk that holds the answer: a search loads a single chunk.
    constexpr std::size_t step = RunTrace::kReadChunk;
    const std::size_t chunk = firstNotBelow(0, (trace.reads() + step - 1) / step, step);
    if (chunk == 0)
        return 0;
    return firstNotBelow((chunk - 1) * step + 1, std::min(chunk * step, trace.reads()), 1);
}

double bucketX(const RunTrace& trace, XAxis mode, std::size_t bucket) {
    const StateBuckets& state = trace.state();
    if (bucket >= state.size())
        return xEnd(trace, mode);
    return mode == XAxis::Position ? static_cast<double>(state.bucketStart(bucket))
                                   : static_cast<double>(state.firstTime(bucket)) / kNsPerSecond;
}

PositionWalker::PositionWalker(const RunTrace& trace, XAxis mode, std::uint64_t position)
    : m_trace(trace), m_mode(mode), m_position(position) {
    if (mode == XAxis::Time && position < trace.positions()) {
        m_bucket = trace.state().bucketOf(position);
        enterBucket();
    }
    m_x = xOfPosition(trace, mode, static_cast<double>(position));
}

void PositionWalker::enterBucket() {
    const StateBuckets& state = m_trace.state();
    const bool last = m_bucket + 1 >= state.size();
    m_t0 = static_cast<double>(state.firstTime(m_bucket));
    const double t1 = static_cast<double>(last ? m_trace.endTimeNs() : state.firstTime(m_bucket + 1));
    m_p0 = static_cast<double>(state.bucketStart(m_bucket));
    m_bucketEnd = last ? m_trace.positions() : state.bucketStart(m_bucket + 1);
    const double span = static_cast<double>(m_bucketEnd) - m_p0;
    m_nsPerPosition = span > 0 ? (t1 - m_t0) / span : 0.0;
}

double PositionWalker::timeX(std::uint64_t position) const {
    return (m_t0 + (static_cast<double>(position) - m_p0) * m_nsPerPosition) / kNsPerSecond;
}

double PositionWalker::advance() {
    ++m_position;
    if (m_mode == XAxis::Position) {
        m_x = static_cast<double>(m_position);
        return m_x;
    }
    if (m_position >= m_bucketEnd && m_position < m_trace.positions()) {
        ++m_bucket;
        enterBucket();
    }
    m_x = m_position >= m_trace.positions() ? static_cast<double>(m_trace.endTimeNs()) / kNsPerSecond
                                            : timeX(m_position);
    return m_x;
}

double xEnd(const RunTrace& trace, XAxis mode) {
    return mode == XAxis::Position ? static_cast<double>(trace.positions())
                                   : static_cast<double>(trace.endTimeNs()) / kNsPerSecond;
}

IndexRange positionsInX(const RunTrace& trace, XAxis mode, double xLo, double xHi) {
    const double n = static_cast<double>(trace.positions());
    const double pLo = std::clamp(std::floor(positionAtX(trace, mode, xLo)), 0.0, n);
    const double pHi = std::clamp(std::ceil(positionAtX(trace, mode, xHi)), 0.0, n);
    const auto first = static_cast<std::uint64_t>(pLo);
    return {first, std::max(first, static_cast<std::uint64_t>(pHi))};
}

IndexRange readsInX(const RunTrace& trace, XAxis mode, double xLo, double xHi) {
    const std::size_t first = firstReadAtX(trace, mode, xLo);
    return {first, std::max(first, firstReadAtX(trace, mode, xHi))};
}

} // namespace la

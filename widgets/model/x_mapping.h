// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "x_axis.h"

#include <cstddef>
#include <cstdint>

namespace la {

class RunTrace;

// x of a (fractional) consumer position, and back.
double xOfPosition(const RunTrace& trace, XAxis mode, double position);
double positionAtX(const RunTrace& trace, XAxis mode, double x);
// x of read `index`: when it was issued / the consumer's position then.
double xOfRead(const RunTrace& trace, XAxis mode, std::size_t index);
// The first read whose x is >= `x` (reads are issued in order, so x never decreases).
std::size_t firstReadAtX(const RunTrace& trace, XAxis mode, double x);
// x where bucket `bucket` of trace.state() starts (bucket == size(): where the trace ends).
double bucketX(const RunTrace& trace, XAxis mode, std::size_t bucket);
// Where the trace ends on the x axis.
double xEnd(const RunTrace& trace, XAxis mode);

// Walks consecutive positions giving each one's x extent [x(), xNext()) without a search per position
// (the rasters bin millions of positions per frame).
class PositionWalker {
public:
    PositionWalker(const RunTrace& trace, XAxis mode, std::uint64_t position);
    std::uint64_t position() const { return m_position; }
    double x() const { return m_x; }
    // x where the current position ends; moves to the next position.
    double advance();

private:
    void enterBucket();
    double timeX(std::uint64_t position) const;

    const RunTrace& m_trace;
    XAxis m_mode;
    std::uint64_t m_position;
    double m_x = 0.0;
    std::size_t m_bucket = 0;
    std::uint64_t m_bucketEnd = 0; // first position of the next bucket
    double m_t0 = 0.0;             // time of the bucket's first position
    double m_p0 = 0.0;
    double m_nsPerPosition = 0.0;
};

// Indices [first, end) of a run's positions or reads.
struct IndexRange {
    std::uint64_t first = 0;
    std::uint64_t end = 0;

    bool empty() const { return end <= first; }
};

// The integer positions whose extent [p, p + 1) meets [xLo, xHi).
IndexRange positionsInX(const RunTrace& trace, XAxis mode, double xLo, double xHi);
// The reads issued inside [xLo, xHi).
IndexRange readsInX(const RunTrace& trace, XAxis mode, double xLo, double xHi);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
// The distance rules of the published PostgreSQL versions (docs/read-stream-model.md §5), plus a fixed
// distance for reference.
#include "version_policies.h"

#include <algorithm>

namespace la {

namespace {
void decayOnHit(Distances& d) {
    if (d.readahead > 1)
        --d.readahead;
}
} // namespace

void Pg17Policy::start(Distances& d, const StreamLimits& limits, bool full) {
    d = startingDistances(limits, full, false);
}

void Pg17Policy::onNoIo(Distances& d, const StreamLimits&, int) {
    decayOnHit(d);
}

void Pg17Policy::onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead& read) {
    if (read.advice) { // behaviour C: random I/O with advice
        d.readahead = std::min(d.readahead * 2, limits.maxPinned);
    } else if (d.readahead > limits.ioCombineLimit) { // behaviour B: settle at io_combine_limit
        --d.readahead;
    } else {
        d.readahead = std::min({d.readahead * 2, limits.ioCombineLimit, limits.maxPinned});
    }
}

void Pg18Policy::start(Distances& d, const StreamLimits& limits, bool full) {
    d = startingDistances(limits, full, false);
}

void Pg18Policy::onNoIo(Distances& d, const StreamLimits&, int) {
    decayOnHit(d);
}

void Pg18Policy::onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead&) {
    d.readahead = std::min(d.readahead * 2, limits.maxPinned);
}

void Pg19Policy::start(Distances& d, const StreamLimits& limits, bool full) {
    d = startingDistances(limits, full, true);
}

void Pg19Policy::onNoIo(Distances& d, const StreamLimits&, int iosInProgress) {
    // Hits only decay the distance when nothing is in flight, and only after a whole window of
    // them has passed without a completed read (6e36930f9a, 8ca147d582).
    if (iosInProgress > 0)
        return;
    if (d.holdoff > 0) {
        --d.holdoff;
        return;
    }
    d.readahead = std::max(1, d.readahead - 1);
    d.combine = std::max(1, d.combine - 1);
}

void Pg19Policy::onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead& read) {
    if (d.readahead > 0 && read.neededWait)
        d.readahead = std::min(d.readahead * 2, limits.maxPinned);
    d.holdoff = limits.maxPinned;
    if (d.combine > 0 && d.combine < limits.ioCombineLimit)
        d.combine = std::min({d.combine * 2, limits.ioCombineLimit, limits.maxPinned});
}

void Pg19Policy::onReadRetiredEarly(Distances& d, const StreamLimits& limits) {
    d.holdoff = limits.maxPinned; // I/O was done: no decay within a window, as after any read
}

void FixedPolicy::start(Distances& d, const StreamLimits& limits, bool) {
    d.readahead = std::clamp(m_distance, 1, limits.maxPinned);
    d.combine = limits.ioCombineLimit;
    d.holdoff = 0;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "stream_config.h"

#include <cstdint>
#include <string>

namespace la {

struct Distances {
    int readahead = 1; // 0 = end of stream (or paused)
    int combine = 1;   // PG19: how large a pending read may grow before it is issued
    int holdoff = 0;   // PG19: hit-calls left before the distance may decay
};

struct CompletedRead {
    bool neededWait = false; // the consumer blocked, or the read was synchronous
    bool advice = false;     // the read carried fadvise advice (PG17 behaviour C)
    int nblocks = 0;
    std::int64_t latencyNs = 0;
};

// How far to look ahead, and nothing else: the mechanics that act on the distance are the stream's
// (mechanics.h), so any policy runs on any version's mechanics. The stream calls the hooks at the points
// where PostgreSQL adjusts its distance: a call that needed no I/O (at look-ahead time) and a completed read
// (at consumption).
class DistancePolicy {
public:
    virtual ~DistancePolicy() = default;
    virtual std::string name() const = 0;
    // Initial distances, and the distances after a reset.
    virtual void start(Distances& d, const StreamLimits& limits, bool full) = 0;
    virtual void onNoIo(Distances& d, const StreamLimits& limits, int iosInProgress) = 0;
    virtual void onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead& read) = 0;
    // A read waited for before the consumer reached it, to free a slot for the rest of a reversed
    // range (CF 7035's read_stream_wait_oldest_io): no growth, at most a hold-off of the decay.
    virtual void onReadRetiredEarly(Distances& /*d*/, const StreamLimits& /*limits*/) {}
    // Observations for policies that measure the workload; PostgreSQL's ignore them, and say so in
    // observesWorkload() (asked once, at the stream's start) so the stream skips two calls per block.
    virtual bool observesWorkload() const { return false; }
    virtual void onReadStarted(int /*missBlocks*/) {}
    virtual void onConsumed(std::int64_t /*now*/, std::int64_t /*waitNs*/) {}
};

// Where every version starts (and restarts after a reset): 1, or a full-size read's worth with
// READ_STREAM_FULL. Both PG19 distances start there; PG17/18 combine up to io_combine_limit throughout.
Distances startingDistances(const StreamLimits& limits, bool full, bool separateCombine);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace la {

// Which reads carry posix_fadvise(WILLNEED) advice, when advice is possible at all.
enum class AdviceRule : std::uint8_t {
    // PG17: every read that does not continue the previous one, except the first read after the
    // stream ran dry, whose preadv follows at once.
    NonSequential,
    // PG18+: a new run is advised until the reads catch up with it (7ea8cd1566), and never when
    // nothing is pinned (the preadv follows at once).
    UntilCaughtUp,
};

// The conditions of read_stream_look_ahead(): when to keep looking and when to issue the pending read.
enum class LookAheadLoop : std::uint8_t {
    ExactDistance,   // PG17: issue a full read, or one of exactly the distance with nothing pinned
    AtLeastDistance, // PG18: the same with "at least the distance"
    CombineDistance, // PG19: a lone pending read grows to the combine distance and is issued there
};

// How max_pinned_buffers and one backend's pin limit are derived.
enum class PinLimitRule : std::uint8_t {
    FourPerIo, // PG17: max(4 x max_ios, io_combine_limit), capped at shared_buffers / backends - 8
    // PG18+: (max_ios + 1) x io_combine_limit, capped at shared_buffers / backends, and before every
    // read the backend's pins left under that cap (docs/read-stream-model.md §4.4)
    ReadPerIoPlusOne,
};

// How GetAccessStrategy(BAS_BULKREAD) sizes its ring (docs/read-stream-model.md §14).
enum class RingRule : std::uint8_t {
    Fixed256kB,       // PG15 to PG17: 256 kB
    PlusIoConcurrency // PG18+: 256 kB + io_combine_limit x eic blocks, within max(256 kB, GetPinLimit())
};

// How io_method=worker's pool of I/O workers is sized (docs/mechanics.md, "I/O workers").
enum class IoWorkerPool : std::uint8_t {
    Fixed,   // PG18: io_workers workers for the server's life
    Elastic, // PG19: from io_min_workers up to io_max_workers on demand, back down when idle (d1c01b79d4)
};

// How a run of descending blocks is read (docs/mechanics.md, "backward").
enum class BackwardRule : std::uint8_t {
    OneBlockReads, // PG17-19: combining is ascending only, so each block of a descending run is a read
    // CF 7035 v2: the run becomes one ascending read whose buffers are handed back in reverse, once
    // every one of them is pinned and read (docs/read-stream-model.md §15).
    ReversedRanges,
};

// How one PostgreSQL version's read stream works around its distance rule (docs/mechanics.md).
// A distance policy runs on any of these.
struct Mechanics {
    const char* name;
    const char* description;
    bool splitBeforeHit;          // a hit after misses ends the read before it (else: keeps it in)
    bool inProgressHeadIsHit;     // a read that starts at a block in flight waits, then is a hit
    bool separateCombineDistance; // the combine distance ends with the stream and gates the fast path
    bool fastPathReadsAtOnce;     // a fast-path miss is read synchronously and waited for at once
    bool asynchronousIo;          // io_method worker/io_uring read in the background (else: the consumer)
    AdviceRule advice;
    LookAheadLoop loop;
    PinLimitRule pinLimit;
    IoWorkerPool ioWorkers;
    RingRule ring;
    BackwardRule backward;
};

extern const Mechanics kPg17Mechanics;
extern const Mechanics kPg18Mechanics;
extern const Mechanics kPg19Mechanics;
extern const Mechanics kCf7035Mechanics;

} // namespace la

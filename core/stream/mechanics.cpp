// SPDX-License-Identifier: GPL-3.0-or-later
// Each version's traits, with the PostgreSQL rule behind each in docs/mechanics.md.
#include "mechanics.h"

namespace la {

const Mechanics kPg17Mechanics{
    "pg17",
    "PostgreSQL 17: synchronous reads, advice, reads end at a hit",
    false,
    false,
    false,
    false,
    false,
    AdviceRule::NonSequential,
    LookAheadLoop::ExactDistance,
    PinLimitRule::FourPerIo,
    IoWorkerPool::Fixed, // no asynchronous I/O, so no workers
    RingRule::Fixed256kB,
    BackwardRule::OneBlockReads,
};

const Mechanics kPg18Mechanics{
    "pg18",
    "PostgreSQL 18: asynchronous I/O, split before a hit, wait for a block in flight",
    true,
    true,
    false,
    false,
    true,
    AdviceRule::UntilCaughtUp,
    LookAheadLoop::AtLeastDistance,
    PinLimitRule::ReadPerIoPlusOne,
    IoWorkerPool::Fixed,
    RingRule::PlusIoConcurrency,
    BackwardRule::OneBlockReads,
};

constexpr Mechanics kPg19Mechanics{
    "pg19",
    "PostgreSQL 19: a separate combine distance, join a block in flight, synchronous fast-path misses",
    true,
    false,
    true,
    true,
    true,
    AdviceRule::UntilCaughtUp,
    LookAheadLoop::CombineDistance,
    PinLimitRule::ReadPerIoPlusOne,
    IoWorkerPool::Elastic,
    RingRule::PlusIoConcurrency,
    BackwardRule::OneBlockReads,
};

// PostgreSQL 20devel with commitfest entry 7035 v2 (ef97fbf296): PostgreSQL 19's mechanics, and
// descending runs combined into reversed ranges.
constexpr Mechanics kCf7035Mechanics = [] {
    Mechanics cf7035 = kPg19Mechanics;
    cf7035.name = "cf7035";
    cf7035.description =
        "CF 7035 v2 (20devel): PostgreSQL 19, and descending runs read as one read, handed back in reverse";
    cf7035.backward = BackwardRule::ReversedRanges;
    return cf7035;
}();

} // namespace la

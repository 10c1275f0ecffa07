// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "observed_trace.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace la {

class BufferPool;
class PrewarmSpec;

// The cache state an imported trace implies for the scan's visits (docs/trace-import.md §6): a
// visited block the server read during the trace was not in shared buffers, every other visited
// block was; a block read again was evicted in between and is a miss at the visit that matches
// that read.
struct TracedCache {
    std::uint64_t visits = 0;
    std::uint64_t misses = 0;       // first visits of read blocks, and the re-reads
    std::uint64_t rereads = 0;      // visits at which a block read before is read again
    std::uint64_t cachedBlocks = 0; // distinct visited blocks the trace never read
    std::uint64_t readBlocks = 0;   // distinct visited blocks the trace read
    // Where the trace and the visits disagree, with the first few blocks of each.
    std::uint64_t unvisitedReads = 0; // reads of blocks the scan never visits
    std::vector<std::uint32_t> unvisitedExamples;
    std::uint64_t unmatchedReads = 0; // more reads of a block than its visits can explain
    std::vector<std::uint32_t> unmatchedExamples;
    // With a snapshot of shared buffers at the start (pg_buffercache's, as --prewarm list:FILE): the
    // visited blocks it holds start cached instead, and where it and the trace disagree is counted.
    bool fromSnapshot = false;
    std::uint64_t snapshotButRead = 0;       // visited blocks the snapshot held that the server read
    std::uint64_t neitherCachedNorRead = 0;  // visited blocks missing from both
    std::vector<std::uint64_t> rereadVisits; // the visits (0-based, blocks only) that re-read, ascending
    std::vector<std::uint64_t> cachedBits;   // bit per relation block: resident at the start
    // The visit each block of `reads` served (kNoVisit: none), in the order of `reads`.
    std::vector<std::uint64_t> visitOfRead;
    static constexpr std::uint64_t kNoVisit = ~std::uint64_t(0);

    std::uint64_t hits() const { return visits - misses; }
    // Loads the blocks resident at the start into `pool`; returns how many it loaded. `leftOut` (if
    // given) tells whether one found the pool full.
    std::uint64_t apply(BufferPool& pool, bool* leftOut = nullptr) const;
    // What it gives and how it was derived, for the user: one line.
    std::string describe() const;
    // The disagreements between the trace and the visits, one line each (none: empty).
    std::vector<std::string> disagreements() const;
};

// How far (in reads) the trace's order of a re-read may be from the visits' order of misses and
// still be matched: I/O workers finish, and so start, reads a little out of the stream's order.
inline constexpr std::uint64_t kRereadTolerance = 1024;

// Where each of `trace`'s reads sits among the visits: the visit its first block served, else the
// previous read's (a read the visits do not explain), for emitObservedEvents(). `cache` must come
// from `trace.impliedBlocks()`.
std::vector<std::uint32_t> readVisitPositions(const ObservedTrace& trace, const TracedCache& cache);

// Walks `visits` (rewound afterwards) against `reads`, the blocks the trace read in order; with a
// `snapshot`, the cache at the start is the snapshot's. Throws
// InputError if the bookkeeping would take more memory than this process may use; returns an
// empty cache (visits 0) if cancelled.
TracedCache deriveTracedCache(const std::vector<std::uint32_t>& reads, BlockSource& visits,
                              const std::atomic<bool>* cancel, const PrewarmSpec* snapshot = nullptr);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace la {

// The read-stream statistics PostgreSQL 19 prints under EXPLAIN (ANALYZE, IO): the IOStats
// counters of read_stream.c, sampled where it samples them (docs/explain-io.md).
struct ExplainIo {
    std::uint64_t prefetchCount = 0; // buffers handed to the consumer, each one sample
    std::uint64_t distanceSum = 0;   // buffers the stream had pinned at each sample
    int distanceMax = 0;             // the most it had pinned at a sample
    int distanceCapacity = 0;        // max_pinned_buffers
    std::uint64_t waitCount = 0;     // reads the consumer had to wait for (synchronous ones count)
    std::uint64_t ioCount = 0;       // reads started that needed I/O
    std::uint64_t ioBlocks = 0;      // their blocks
    std::uint64_t ioInProgress = 0;  // reads in progress as each started, itself included
    // An observed (syscall-trace) run knows its reads but not the stream's pins or waits.
    bool prefetchKnown = true;
    bool waitsKnown = true;

    void countPrefetch(int pinned) {
        ++prefetchCount;
        distanceSum += static_cast<std::uint64_t>(pinned);
        if (pinned > distanceMax)
            distanceMax = pinned;
    }
    void countIo(int nblocks, int inProgress) {
        ++ioCount;
        ioBlocks += static_cast<std::uint64_t>(nblocks);
        ioInProgress += static_cast<std::uint64_t>(inProgress);
    }
    void countWait() { ++waitCount; }

    double prefetchAvg() const { return ratio(distanceSum, prefetchCount); }
    double ioSizeAvg() const { return ratio(ioBlocks, ioCount); }
    double ioInProgressAvg() const { return ratio(ioInProgress, ioCount); }

private:
    static double ratio(std::uint64_t sum, std::uint64_t n) {
        return n > 0 ? static_cast<double>(sum) / static_cast<double>(n) : 0.0;
    }
};

// explain.c's text form, one line each, without indentation or newline; empty where explain.c
// prints nothing (no sample: no Prefetch line and no I/O line; no read: no I/O line). An observed
// run prints only the I/O line, with "waits=?".
std::string explainPrefetchLine(const ExplainIo& io);
std::string explainIoLine(const ExplainIo& io);
// Where PostgreSQL 19 prints the lines (explain.c calls show_scan_io_usage() for Seq Scan, Bitmap Heap
// Scan and TID Range Scan only), for the note shown beside them: an index-scan run's figures are not
// what a plain PostgreSQL 19 prints, since it prints none.
std::string explainIoScopeNote(bool indexScan);
// Both lines, each indented by two spaces as under a plan node and ended by a newline.
std::string explainIoText(const ExplainIo& io);

} // namespace la

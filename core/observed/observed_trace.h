// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "trace_format.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace la {

// Where a read's data came from, when the trace tells it exactly (a kernel capture with calls).
enum class ReadSource : std::uint8_t { Unknown, PageCache, Device };

// One read of the chosen relation, as the trace shows it.
struct ObservedRead {
    std::int64_t startNs = 0;    // since the relation's first read started
    std::int64_t durationNs = 0; // 0 when the trace gives no durations
    std::uint32_t block = 0;     // first block, counted across the relation's segment files
    std::uint32_t nblocks = 0;
    std::uint32_t process = 0; // index into ObservedTrace::processes
    ReadSource source = ReadSource::Unknown;
    bool readAhead = false; // a device read of the kernel's own read-ahead (a capture without calls)
};

// A device read request of the relation's blocks (a kernel capture), beside the reads the program made.
struct ObservedDeviceRead {
    std::int64_t startNs = 0;    // issue, on the reads' clock
    std::int64_t durationNs = 0; // to completion; 0 when not seen
    std::uint32_t block = 0;
    std::uint32_t nblocks = 0;
    bool readAhead = false; // the kernel's own read-ahead (RWBS "A")
};

// The consumer waited for a read: Lookahead's own CSV records each; in a syscall trace, every read
// the reader made itself but the kernel's read-ahead (docs/trace-import.md §5).
struct ObservedWait {
    std::int64_t timeNs = 0;
    std::uint32_t read = 0; // index into ObservedTrace::reads
};

// A file the trace reads, for choosing the relation.
struct TracedFile {
    std::string name; // the relation's path (segment 0), or "fd N of process P" without paths
    std::uint64_t reads = 0;
    std::uint64_t bytes = 0;
};

// What an imported trace says about one relation.
struct ObservedTrace {
    TraceFormat format = TraceFormat::Auto;
    std::string relation;
    std::vector<TracedFile> files;   // the files read most (up to 64), most reads first
    std::uint64_t otherFiles = 0;    // files read beyond those listed
    std::vector<ObservedRead> reads; // the relation's successful reads, by start time
    // A kernel capture's device reads of the relation, by start time: its reads themselves where it
    // has no calls of the relation (io_uring), else what the device read beside the calls.
    std::vector<ObservedDeviceRead> deviceReads;
    // Each read's source is known exactly: a kernel capture whose reads are calls.
    bool sourcesExact = false;
    std::vector<ObservedWait> waits;
    std::vector<std::uint32_t> processes; // pids of the processes that read the relation
    bool hasTimes = true;                 // false: reads are placed 1 µs apart in trace order
    bool hasDurations = false;
    std::uint64_t lines = 0;
    std::uint64_t failedReads = 0;      // reads of the relation that returned an error
    std::uint64_t unalignedReads = 0;   // not whole 8 kB blocks (rounded out to blocks)
    std::uint64_t unmatchedResumes = 0; // "resumed" lines whose start is not in the trace (skipped)
    std::uint64_t uringEnters = 0;
    std::vector<std::string> notes; // what else the import noticed (skipped lines, short reads, ...)
    // The process that ran the scan, whose own reads are its waits, and how it was known; empty
    // where the trace does not say (several processes read and none was named).
    std::optional<std::uint32_t> backend;
    std::string backendBasis;

    // Whether `waits` are all of the scan's waits: a CSV of ours records them, and a syscall trace
    // gives them once the backend is known. Else they are "not in the trace", never 0.
    bool waitsKnown() const {
        return format == TraceFormat::LookaheadCsv || backend.has_value() || !waits.empty();
    }
    // What the waits cover, in words; empty for our own CSV.
    std::string waitsScope() const;

    // One more than the last block read.
    std::uint64_t relationBlocks() const;
    // The block sequence the reads imply: each read's blocks, in order, reads by start time.
    // Throws InputError if it would take more memory than this process may use.
    std::vector<std::uint32_t> impliedBlocks() const;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed_trace.h"

#include <cstdint>
#include <span>
#include <string>

namespace la {

// Which of a trace's reads the OS page cache served and which went to the device, told apart by how
// long each read took (docs/trace-import.md §5, "Page cache and device reads").
struct ReadSources {
    enum class Basis : std::uint8_t {
        NotKnown,     // the trace has no durations (or no reads): nothing is told apart
        Valley,       // fast and slow reads, split at the valley between them
        AllPageCache, // one kind of read, as fast as a copy from memory
        AllDevice,    // one kind of read, slower than a copy from memory
    };
    Basis basis = Basis::NotKnown;
    std::uint64_t pageCacheReads = 0;
    std::uint64_t deviceReads = 0;
    // Valley: a read that took at most this long was served by the page cache.
    std::int64_t thresholdNs = 0;
    // The median duration of the page-cache reads and of the device reads (0 for a kind with none).
    std::int64_t pageCacheMedianNs = 0;
    std::int64_t deviceMedianNs = 0;

    bool known() const { return basis != Basis::NotKnown; }
    bool split() const { return basis == Basis::Valley; }
    // Whether `read` was served by the page cache; false where nothing is known.
    bool fromPageCache(const ObservedRead& read) const;
    // How the reads were told apart, in a few words for a summary ("the valley of the trace's read
    // times, between …"), or why they were not.
    std::string basisText() const;
};

// Tells `reads` apart by their durations; nothing is known when the trace has none.
ReadSources classifyReadSources(std::span<const ObservedRead> reads, bool hasDurations);

// What a page-cache hit of `nblocks` 8 kB blocks takes at most, generously (a system call, under
// strace's slowdown, and a copy from memory): the yardstick for which kind a group of reads is.
std::int64_t pageCacheCeilingNs(std::uint32_t nblocks);

// A duration for people: "9.1 µs", "92 µs", "1.5 ms".
std::string durationText(std::int64_t ns);

} // namespace la

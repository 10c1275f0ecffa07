// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace la {

// What one line of a trace says, as far as importing reads is concerned.
enum class LineKind : std::uint8_t {
    Read,          // a whole read call (start time, file, offset, size, maybe its duration)
    Started,       // strace "<unfinished ...>": a read began; its size and result come on a later line
    Resumed,       // strace "<... pread64 resumed>": the rest of the process's unfinished read
    Completed,     // Lookahead CSV: read io_id finished
    Waited,        // Lookahead CSV: the consumer waited for read io_id
    UringEnter,    // io_uring_enter: reads went to io_uring, where a syscall trace cannot see them
    PageCacheFill, // kernel capture: pages of a file entered the page cache
    DeviceRead,    // kernel capture: a device read request (the reads themselves where it has no calls)
    Other,         // anything else a trace legitimately holds (headers, exits, signals, other calls)
    Bad,           // not a line of this format, or cut short
};

// Fields of one line. Views point into the line and live as long as it.
struct TraceLine {
    LineKind kind = LineKind::Bad;
    std::uint32_t pid = 0;        // process (or thread); 0 when the trace does not say
    bool hasTime = false;         // the line carries a timestamp
    std::int64_t timeNs = 0;      // when the call started
    std::int64_t durationNs = -1; // -1: the trace gives no duration
    std::int64_t fd = -1;         // -1: not known (a resumed line)
    std::string_view path;        // the file read (strace -yy, perf with paths; the run label for CSV)
    std::uint64_t offset = 0;     // bytes into the file
    std::uint64_t bytes = 0;      // requested length
    std::int64_t result = -1;     // bytes the call returned; -1: the trace does not say
    bool failed = false;          // the call returned an error
    bool interrupted = false;     // perf: another task cut the call; its end is not in the trace
    std::uint32_t ioId = 0;       // Lookahead CSV: the read's number
    bool readAhead = false;       // kernel capture: the kernel's own read-ahead (RWBS "RA")
    std::uint64_t lostEvents = 0; // kernel capture: events its ring buffer dropped (a "#" line says)
};

// What a line may say (docs/trace-import.md, "Bad input"): beyond these it is malformed, so no
// impossible value can reach the importer's arithmetic or its sentinels.
inline constexpr std::int64_t kMaxTraceTimeNs = 4'000'000'000'000'000'000; // about 2096 as epoch time
inline constexpr std::int64_t kMaxReadDurationNs = 86'400'000'000'000;     // one day
inline constexpr std::uint64_t kMaxReadBytes = 0x7ffff000; // Linux's most bytes for one read call
inline constexpr std::size_t kMaxTracePathBytes = 4096;    // PATH_MAX; also caps CSV run labels

// The bytes a read covered: its result when the trace gives one, else the length asked for.
std::uint64_t coveredBytes(const TraceLine& line);

// `kind` if every field of `line` is within those bounds, else Bad. Each parser ends with it.
LineKind withinBounds(const TraceLine& line, LineKind kind);

// The reads every parser recognizes: pread64 (pread on old strace), preadv and preadv2.
enum class ReadCall : std::uint8_t { None, Pread, Preadv, UringEnter };

inline ReadCall readCallNamed(std::string_view name) {
    if (name == "pread64" || name == "pread")
        return ReadCall::Pread;
    if (name == "preadv" || name == "preadv2")
        return ReadCall::Preadv;
    if (name == "io_uring_enter")
        return ReadCall::UringEnter;
    return ReadCall::None;
}

} // namespace la

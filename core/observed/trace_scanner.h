// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "line_reader.h"
#include "trace_format.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace la {

// Receives the reads of one pass over a trace, whole: an unfinished strace call arrives once,
// when it resumes, with its start time and file.
class TraceVisitor {
public:
    virtual ~TraceVisitor() = default;
    virtual void read(const TraceLine& line) = 0;
    virtual void completed(const TraceLine& /*line*/) {}
    virtual void waited(const TraceLine& /*line*/) {}
    virtual void pageCacheFill(const TraceLine& /*line*/) {}
    virtual void deviceRead(const TraceLine& /*line*/) {}
};

// What a pass saw besides the reads.
struct ScanStats {
    std::uint64_t lines = 0;
    std::uint64_t badLines = 0;
    std::vector<std::string> firstBad; // "line N: 'excerpt'" for the first three
    std::uint64_t uringEnters = 0;
    std::uint64_t unmatchedResumes = 0;
    std::uint64_t unfinishedCalls = 0; // "<unfinished ...>" calls that never resumed (left out)
    std::uint64_t lostEvents = 0;      // events a kernel capture says its ring buffer dropped
};

struct ScanProgress {
    // Bytes of the trace read so far out of the total (called every few thousand lines).
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
    // Added to the bytes done, so that two passes report one progress from 0 to `total`.
    std::uint64_t doneBefore = 0;
    std::uint64_t total = 0;
};

// One pass over the whole trace from its first line. Returns false if cancelled.
bool scanTrace(LineReader& reader, TraceFormat format, TraceVisitor& visitor, ScanStats& stats,
               const ScanProgress& progress);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed_trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace la {

struct TraceImportRequest {
    std::string path;
    TraceFormat format = TraceFormat::Auto;
    // Which file's reads: a path (or its last components, e.g. "base/5/16390"), "fd:N" for
    // descriptor N in every process, or empty for the file with the most reads.
    std::string relation;
    // The process that ran the scan (--trace-backend): its own reads are its waits. Without it, the
    // only process that read the relation is taken for it.
    std::optional<std::uint32_t> backendPid;
};

struct TraceImportCallbacks {
    // Bytes of the trace processed out of the total (the trace is read twice: the total counts both).
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// Reads a strace, perf trace or Lookahead trace CSV (docs/trace-import.md) in two streaming passes:
// the first lists the files read, the second keeps the chosen relation's reads. Memory grows with
// those reads only. Throws InputError with a one-line message for a trace that cannot be used;
// returns nothing if cancelled.
std::optional<ObservedTrace> importTrace(const TraceImportRequest& request,
                                         const TraceImportCallbacks& callbacks = {});

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "combinable_runs.h"
#include "observed_trace.h"
#include "summary.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace la {

// The summary of an observed run: the fields a modelled run has, computed by the same
// SummaryBuilder from the same events, plus what only a trace says.
struct ObservedSummary {
    RunSummary run;       // policy "observed"; blocks = blocks read; runtime = first start to last end
    std::string source;   // the trace format
    std::string relation; // the chosen file
    std::int64_t deviceTimeNs = 0; // the reads' durations added up
    double megabytesPerSecond = 0; // bytes read over the run time (10^6 bytes)
    double meanReadBlocks = 0;
    CombinableRuns combinable;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> readsByProcess; // pid, reads
};

// RunSummary::pageCacheBasis of a kernel capture whose calls' sources are known exactly.
inline constexpr std::string_view kKernelCaptureSourceBasis =
    "the kernel capture: the device's reads and page-cache fills during each call";

// The observed run's own figures, as a model run's: from its reads replayed as events.
RunSummary summarizeObservedRun(const ObservedTrace& trace);
// What only the trace says, beside the observed run's summary `run` as it ran (with PostgreSQL's
// EXPLAIN waits where it took them), which it does not compute again.
ObservedSummary observedSummaryOf(const ObservedTrace& trace, RunSummary run);
// Both, from the trace alone.
ObservedSummary summarizeObserved(const ObservedTrace& trace);

} // namespace la

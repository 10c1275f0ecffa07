// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "io/event_spool.h"
#include "run.h"
#include "run_trace.h"

#include <memory>

namespace la {

// Puts `trace`'s exact columns on disk, in the private directory of `config`'s dataset files and
// event spools (on disk, not a tmpfs in RAM), so a window's memory stays bounded at any run length.
// Where that directory cannot be made private, the trace keeps them in memory.
void spillBesideDatasets(RunTrace& trace, const RunConfig& config);

// The views' empty trace for `run`: its limits (from its policy's mechanics and settings) or, for an
// observed run, marked as such; its columns spilled beside the datasets. Throws InputError for an
// unknown policy.
std::unique_ptr<RunTrace> viewTraceFor(const RunVariant& run);

// Replaces `viewed` with the events of `batch` the views read (isViewedEvent): the window's mailbox
// and the exports' traces take only those. `viewed` is reused, as batches arrive many times a second.
void keepViewed(std::span<const Event> batch, std::vector<Event>& viewed);

// A spool for one run's events in the same directory. Without one the run still goes; exports then
// say why they cannot write it.
std::shared_ptr<EventSpool> spoolBesideDatasets(const RunConfig& config);

} // namespace la

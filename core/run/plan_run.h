// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "buffer_pool.h"
#include "datasets/plan_visits.h"
#include "mechanics.h"
#include "run_callbacks.h"
#include "sim_device.h"
#include "stream_config.h"
#include "summary.h"
#include "tracer.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace la {

// What the streams of a plan run share: the backend's stream settings, its version's rules, shared
// buffers, device and trace.
struct PlanBackend {
    const StreamConfig& stream;
    const std::string& policy;
    const Mechanics& mechanics;
    BufferPool& pool;
    SimDevice& device;
    Tracer& tracer;
    std::int64_t consumerNs = 0;
    int collapseWindow = 32;
};

// Reads `plan`'s streams as one backend's executor does (docs/plan-runs.md): one read stream each,
// all on the backend's one device, shared buffers and pin limit, taking each turn's buffers from its
// stream (resetting it where its visits say), then each stream to its end. Each stream's events are
// summed in `summaries` (made anew, one per stream, in stream order); returns false if cancelled.
bool readPlanStreams(const PlanSource& plan, const PlanBackend& backend, const RunCallbacks& callbacks,
                     std::deque<SummaryBuilder>& summaries);

} // namespace la

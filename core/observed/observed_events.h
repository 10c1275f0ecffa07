// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"
#include "observed_trace.h"

#include <cstdint>
#include <span>
#include <vector>

namespace la {

// Replays an observed trace as the engine's event stream (core/base/event.h), so every sink that reads a
// run (SummaryBuilder, EventCsvWriter, the window's trace) reads it too: ReadStarted at each read's
// start, ReadCompleted at its end, Waited where the trace recorded waits, in time order, with the
// reads in flight after each event. A syscall trace knows nothing of the stream's distance or of
// cache hits, so there are no Requested/Hit/Miss/Consumed/DistanceChanged events. `position` counts
// the blocks whose reads started before the event, or, given `visitPositions` (one per read), is
// the visit of the scan that the read served, so that the observed reads line up with a model of
// the same visits (core/observed/traced_cache.h); io_id is the read's number from 1. A kernel capture's
// device reads come as DeviceReadStarted/DeviceReadCompleted (io_id: the device read's number from 1,
// in_flight: the device's requests in flight, flags: readAhead), between the reads at their times.
void emitObservedEvents(const ObservedTrace& trace, std::span<EventSink* const> sinks,
                        const std::vector<std::uint32_t>* visitPositions = nullptr);

} // namespace la

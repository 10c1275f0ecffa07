// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the CLI does with an observed trace once it has one, from an imported trace or from a
// session (app/cli/import_command.cpp): its summary, its event stream and the block sequence it implies.
// A trace or session that a reader accepted must survive all three.

#include "event.h"
#include "observed/observed_events.h"
#include "observed/observed_summary.h"
#include "observed/observed_trace.h"

namespace la::fuzz {

class CountingSink final : public EventSink {
public:
    void onEvents(std::span<const Event> batch) override { events += batch.size(); }
    std::uint64_t events = 0;
};

inline void useObserved(const ObservedTrace& trace) {
    const ObservedSummary summary = summarizeObserved(trace);
    CountingSink counter;
    EventSink* sinks[] = {&counter};
    emitObservedEvents(trace, sinks);
    const std::vector<std::uint32_t> blocks = trace.impliedBlocks();
    (void)summary;
    (void)blocks;
}

} // namespace la::fuzz

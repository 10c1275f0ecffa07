// SPDX-License-Identifier: GPL-3.0-or-later
#include "observed_events.h"

#include "tracer.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

namespace la {

namespace {
std::uint8_t clampBlocks(std::uint32_t nblocks) {
    return static_cast<std::uint8_t>(std::min<std::uint32_t>(nblocks, 255)); // as the engine's events
}
} // namespace

void emitObservedEvents(const ObservedTrace& trace, std::span<EventSink* const> sinks) {
    Tracer tracer;
    for (EventSink* sink : sinks)
        tracer.addSink(sink);
    const auto& reads = trace.reads;
    // Reads still in flight, by end time (earliest first).
    using End = std::pair<std::int64_t, std::uint32_t>;
    std::priority_queue<End, std::vector<End>, std::greater<>> inFlight;
    std::uint32_t position = 0;
    std::size_t nextRead = 0, nextWait = 0;
    std::vector<ObservedWait> waits = trace.waits;
    std::stable_sort(waits.begin(), waits.end(),
                     [](const ObservedWait& a, const ObservedWait& b) { return a.timeNs < b.timeNs; });

    const auto emit = [&](EventKind kind, std::int64_t time, std::uint32_t read) {
        Event& event = tracer.next();
        event = Event{};
        event.time_ns = time;
        event.position = position;
        event.block = reads[read].block;
        event.nblocks = clampBlocks(reads[read].nblocks);
        event.io_id = read + 1;
        event.kind = kind;
        event.in_flight = static_cast<std::uint16_t>(std::min<std::size_t>(inFlight.size(), 65535));
        tracer.commit();
    };
    constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
    while (nextRead < reads.size() || !inFlight.empty() || nextWait < waits.size()) {
        const std::int64_t start = nextRead < reads.size() ? reads[nextRead].startNs : kNever;
        const std::int64_t end = inFlight.empty() ? kNever : inFlight.top().first;
        const std::int64_t wait = nextWait < waits.size() ? waits[nextWait].timeNs : kNever;
        // At equal times a read ends before the next starts, and a wait comes before its read ends.
        if (wait <= end && wait <= start) {
            emit(EventKind::Waited, wait, waits[nextWait].read);
            ++nextWait;
        } else if (end <= start) {
            const std::uint32_t read = inFlight.top().second;
            inFlight.pop();
            emit(EventKind::ReadCompleted, end, read);
        } else {
            const auto read = static_cast<std::uint32_t>(nextRead++);
            inFlight.emplace(start + reads[read].durationNs, read);
            emit(EventKind::ReadStarted, start, read);
            position += reads[read].nblocks;
        }
    }
    tracer.flush();
}

} // namespace la

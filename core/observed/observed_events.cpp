// SPDX-License-Identifier: GPL-3.0-or-later
#include "observed_events.h"

#include "checked_math.h"
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

void emitObservedEvents(const ObservedTrace& trace, std::span<EventSink* const> sinks,
                        const std::vector<std::uint32_t>* visitPositions) {
    if (visitPositions && visitPositions->size() != trace.reads.size())
        visitPositions = nullptr;
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
    // No sentinel time: a time from the input may be any value, so each source says whether it has
    // an event left.
    while (true) {
        const bool haveStart = nextRead < reads.size();
        const bool haveEnd = !inFlight.empty();
        const bool haveWait = nextWait < waits.size();
        if (!haveStart && !haveEnd && !haveWait)
            break;
        const std::int64_t start = haveStart ? reads[nextRead].startNs : 0;
        const std::int64_t end = haveEnd ? inFlight.top().first : 0;
        const std::int64_t wait = haveWait ? waits[nextWait].timeNs : 0;
        // At equal times a read ends before the next starts, and a wait comes before its read ends.
        if (haveWait && (!haveEnd || wait <= end) && (!haveStart || wait <= start)) {
            if (waits[nextWait].read < reads.size())
                emit(EventKind::Waited, wait, waits[nextWait].read);
            ++nextWait;
        } else if (haveEnd && (!haveStart || end <= start)) {
            const std::uint32_t read = inFlight.top().second;
            inFlight.pop();
            emit(EventKind::ReadCompleted, end, read);
        } else {
            const auto read = static_cast<std::uint32_t>(nextRead++);
            std::int64_t readEnd = 0;
            if (!checkedAdd(start, std::max<std::int64_t>(reads[read].durationNs, 0), readEnd))
                readEnd = std::numeric_limits<std::int64_t>::max();
            inFlight.emplace(readEnd, read);
            if (visitPositions)
                position = (*visitPositions)[read];
            emit(EventKind::ReadStarted, start, read);
            if (!visitPositions)
                position += reads[read].nblocks;
        }
    }
    tracer.flush();
}

} // namespace la

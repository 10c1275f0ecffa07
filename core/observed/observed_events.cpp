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

std::uint16_t clampDepth(std::size_t depth) {
    return static_cast<std::uint16_t>(std::min<std::size_t>(depth, 65535));
}

// A device read's start or completion, with the device's requests in flight after it.
struct DeviceStep {
    std::int64_t timeNs = 0;
    std::uint32_t read = 0; // index into ObservedTrace::deviceReads
    bool start = false;
    std::uint16_t depth = 0;
};

// The device reads' starts and completions by time (a completion before a start at the same time).
std::vector<DeviceStep> deviceSteps(const std::vector<ObservedDeviceRead>& reads) {
    std::vector<DeviceStep> steps;
    steps.reserve(2 * reads.size());
    for (std::size_t i = 0; i < reads.size(); ++i) {
        std::int64_t end = 0;
        if (!checkedAdd(reads[i].startNs, reads[i].durationNs, end))
            end = std::numeric_limits<std::int64_t>::max();
        steps.push_back({reads[i].startNs, static_cast<std::uint32_t>(i), true, 0});
        steps.push_back({end, static_cast<std::uint32_t>(i), false, 0});
    }
    std::stable_sort(steps.begin(), steps.end(), [](const DeviceStep& a, const DeviceStep& b) {
        return a.timeNs != b.timeNs ? a.timeNs < b.timeNs : !a.start && b.start;
    });
    std::size_t depth = 0;
    for (DeviceStep& step : steps) {
        depth = step.start ? depth + 1 : depth - 1; // every completion follows its start
        step.depth = clampDepth(depth);
    }
    return steps;
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
    const std::vector<DeviceStep> device = deviceSteps(trace.deviceReads);
    std::size_t nextDevice = 0;
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
        event.in_flight = clampDepth(inFlight.size());
        tracer.commit();
    };
    const auto emitDevice = [&](const DeviceStep& step) {
        const ObservedDeviceRead& read = trace.deviceReads[step.read];
        Event& event = tracer.next();
        event = Event{};
        event.time_ns = step.timeNs;
        event.position = position;
        event.block = read.block;
        event.nblocks = clampBlocks(read.nblocks);
        event.io_id = step.read + 1;
        event.kind = step.start ? EventKind::DeviceReadStarted : EventKind::DeviceReadCompleted;
        event.flags = read.readAhead ? event_flag::readAhead : 0;
        event.in_flight = step.depth;
        tracer.commit();
    };
    // No sentinel time: a time from the input may be any value, so each source says whether it has
    // an event left.
    while (true) {
        const bool haveStart = nextRead < reads.size();
        const bool haveEnd = !inFlight.empty();
        const bool haveWait = nextWait < waits.size();
        const bool haveDevice = nextDevice < device.size();
        if (!haveStart && !haveEnd && !haveWait && !haveDevice)
            break;
        const std::int64_t start = haveStart ? reads[nextRead].startNs : 0;
        const std::int64_t end = haveEnd ? inFlight.top().first : 0;
        const std::int64_t wait = haveWait ? waits[nextWait].timeNs : 0;
        const std::int64_t deviceTime = haveDevice ? device[nextDevice].timeNs : 0;
        // At equal times the device's steps come after the reads' events (a call's device request
        // is issued inside it), a read ends before the next starts, and a wait comes before its
        // read ends.
        if (haveDevice && (!haveWait || deviceTime < wait) && (!haveEnd || deviceTime < end) &&
            (!haveStart || deviceTime < start)) {
            emitDevice(device[nextDevice++]);
        } else if (haveWait && (!haveEnd || wait <= end) && (!haveStart || wait <= start)) {
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

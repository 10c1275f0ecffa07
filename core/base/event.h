// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace la {

enum class EventKind : std::uint8_t {
    Requested,     // the callback produced `block` (look-ahead time)
    Hit,           // a 1-block call that needed no I/O
    Miss,          // `block` needs I/O; part of read `io_id`
    ReadStarted,   // read `io_id` of `nblocks` from `block` was issued
    ReadCompleted, // read `io_id` finished from the stream's point of view
    Waited,        // the consumer blocked on read `io_id` (time = start of the wait)
    Consumed,      // `block` handed to the consumer; flags say miss/waited
    DistanceChanged,
    Reset,
    Unget,
    EndOfStream,
    // An observed run from a kernel capture: a device read request of the relation, beside the
    // program's reads (docs/trace-import.md §2.4); in_flight counts the device's requests in flight.
    DeviceReadStarted,
    DeviceReadCompleted,
};

namespace event_flag {
inline constexpr std::uint8_t miss = 1;      // Consumed: the block was read, not found cached
inline constexpr std::uint8_t waited = 2;    // Consumed: the consumer had to wait for it
inline constexpr std::uint8_t readAhead = 4; // DeviceRead*: the kernel's own read-ahead
} // namespace event_flag

// The streams one run may have: a plan's scan nodes, each a stream.
inline constexpr std::size_t kMaxPlanStreams = 64;

// One trace record. Kept at 32 bytes so that a 10 M-block run stays in memory and batches
// stay cache-friendly; every event carries the stream's state so views need no replay.
struct Event {
    std::int64_t time_ns = 0;   // virtual (simulated device) or real (since run start)
    std::uint32_t position = 0; // buffers handed to the consumer so far
    std::uint32_t block = 0;    // block, or first block of a read
    std::uint32_t io_id = 0;    // read number (ReadStarted/Miss/ReadCompleted/Waited)
    EventKind kind = EventKind::Requested;
    std::uint8_t nblocks = 0; // size of the read in blocks
    std::uint8_t flags = 0;   // event_flag bits
    // In a run of several streams of one backend (a plan's nodes, docs/plan-runs.md): the stream's
    // place among them, below kMaxPlanStreams. 0 in a run of one stream.
    std::uint8_t stream = 0;
    std::uint16_t in_flight = 0; // reads in progress after the event
    std::uint16_t distance = 0;  // read-ahead distance after the event
    std::uint16_t combine_distance = 0;
    std::uint16_t pinned = 0; // buffers pinned by the stream after the event
};
static_assert(sizeof(Event) <= 32, "events must stay small");

// Receives events in batches, on the thread that runs the stream.
class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void onEvents(std::span<const Event> batch) = 0;
};

} // namespace la

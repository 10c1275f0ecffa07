// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "buffer_pool.h"
#include "distance_policy.h"
#include "event.h"
#include "explain_io.h"
#include "io_backend.h"
#include "mechanics.h"
#include "sim_device.h"
#include "stream_config.h"
#include "summary.h"
#include "tracer.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace la {

// Lookahead's re-implementation of PostgreSQL's read stream (docs/read-stream-model.md §2-8): a
// queue of pinned buffers fed by look-ahead, one pending read grown by combining adjacent blocks, at
// most max_ios reads in flight, a one-block "unget" slot, the all-cached fast path, one version's
// mechanics (docs/mechanics.md) and the distance rules of a pluggable policy. Single-threaded: the
// consumer drives it by calling nextBuffer(). Each event goes to `tracer` and, as it is emitted, to
// `summary` (one of its own if none is given).
class ReadStream {
public:
    ReadStream(const StreamConfig& config, DistancePolicy& policy, const Mechanics& mechanics,
               BufferPool& pool, IoBackend& io, BlockSource& source, Tracer& tracer,
               SummaryBuilder* summary = nullptr);

    // Hands out the next block in callback order; false at end of stream (or at a reset marker,
    // after which resetRequested() is true and the caller resets to continue).
    bool nextBuffer(std::uint32_t& block);
    void reset();
    bool resetRequested() const { return m_resetRequested; }
    // The consumer's CPU time on the buffer it was handed, on the backend's clock.
    void consume(std::int64_t ns) {
        if (m_sim != nullptr)
            m_sim->consume(ns);
        else
            m_io.consume(ns);
    }

    // PostgreSQL 19's pause/resume: look-ahead stops as if the stream ended, without draining,
    // and resumes at the saved distances with no ramp-up.
    void pause();
    void resume();

    // The buffers the backend holds pinned besides this stream's and its consumer's: in a run of
    // several streams, the others' pins as they are when the consumer turns to this one.
    void setOtherPins(int pins);

    const StreamLimits& limits() const { return m_limits; }
    // Counts PostgreSQL's EXPLAIN IO statistics into `into` from now on (docs/explain-io.md).
    void countExplainIo(ExplainIo& into) {
        m_explainIo = &into;
        into.distanceCapacity = m_limits.maxPinned;
    }
    const Distances& distances() const { return m_d; }
    int pinned() const { return m_pinned; }
    // Its pins and the buffer its consumer holds: what it counts for the backend's pin limit.
    int heldPins() const { return m_pinned + (m_holdingConsumed ? 1 : 0); }
    int iosInProgress() const { return static_cast<int>(m_iosCount); }
    bool inFastPath() const { return m_detour == Detour::FastPath; }

private:
    struct Entry {
        std::uint32_t block = 0;
        std::uint32_t frame = 0; // buffer pool handle
        std::uint8_t flags = 0;  // event_flag bits for the Consumed event
    };
    struct Op {
        std::uint32_t ioId = 0;
        std::uint64_t headSeq = 0;  // queue position of the op's first buffer (its buffers follow)
        std::uint32_t lowBlock = 0; // lowest block the op covers (reads are ascending)
        std::uint32_t firstMiss = 0, lastMiss = 0;
        std::uint32_t missBlocks = 0;
        std::uint32_t nentries = 0;
        bool device = false; // some block needed a read from the device
        bool advice = false;
        bool synchronous = false;
        bool alreadyWaited = false; // the fast path performed it at once
        ReadOutcome outcome;
    };

    // Where nextBuffer() goes before the queue: one test on the usual path.
    enum class Detour : std::uint8_t {
        None,
        FastPath, // the all-cached fast path (§6)
        Reversed, // a reversed range being handed back (CF 7035)
    };
    // What the pending read is, besides its blocks.
    enum class PendingOrder : std::uint8_t {
        Ascending,  // each block one above the last (every version)
        Descending, // --backward-combining's what-if: each block one below, started in callback order
        Reversed,   // cf7035: each block one below; read upward, handed back in reverse
        Completing, // cf7035: the rest of a reversed range whose first part has started; nothing joins
    };
    // A span of the queue handed back in reverse (CF 7035): all of it pinned and read first.
    struct ReversedRange {
        std::uint64_t headSeq = 0;
        std::uint32_t nblocks = 0;
    };

    // Look-ahead, with the loop conditions of the mechanics' LookAheadLoop.
    void lookAhead(bool suppressAdvice);
    bool keepLooking() const;
    bool pendingReadFull() const;
    bool issueAfterLooking() const;
    bool shouldLookAhead() const; // PG19's loop conditions
    bool shouldIssueNow() const;
    bool tryMerge(std::uint32_t block);
    [[gnu::noinline]] bool tryMergeBelow(std::uint32_t block); // the block just below the pending read
    std::uint32_t pendingBlockAt(int i) const;
    void dropPending(int n); // the first n pending blocks, in callback order, have been started

    // One StartReadBuffers() call over the head of the pending read; false if the backend's pin
    // budget held it back (the caller puts its block back and stops looking).
    bool startPending(bool suppressAdvice);
    // PG18+'s GetAdditionalPinLimit() before a read of `wanted` blocks, plus the forwarded pin (§4.4):
    // the blocks the read may take, 0 if it must wait for buffers to be released. Out of line: only
    // reads near the backend's limit ask.
    [[gnu::noinline]] int pinBudget(int wanted);
    bool adviseRead(std::uint32_t low, bool suppressAdvice);
    BufferPool::Pinned pinHead(std::uint32_t block);
    void startHitCall(std::uint32_t block, std::uint32_t frame);
    // The op is built in place in the next free slot of the ring (the stream never starts one with
    // max_ios in flight); startOp() adds it to the reads in progress.
    Op& newOp(bool synchronous);
    void addMiss(Op& op, std::uint32_t block, const BufferPool::Pinned& pinned);
    // Over the rest of the pending read, up to a block an earlier read covers, `nblocks` at most.
    void extendRead(Op& op, int nblocks);

    bool getBlock(std::uint32_t& block);
    void endOfStream();
    // Waits for the oldest read in flight and makes its buffers valid; a wait marks the buffer at
    // `waiterSeq`, the one the consumer waited to be handed. The slot stays valid until newOp().
    const Op& finishOldestIo(ReadOutcome& outcome, std::uint64_t waiterSeq);
    std::int64_t completeOldestIo(std::uint64_t waiterSeq); // returns how long the consumer waited
    [[gnu::noinline]] void retireOldestIo();                // CF 7035's way to free a slot mid-range
    void handOut(std::uint32_t& block, std::int64_t waitNs, bool fastPath = false);
    [[gnu::noinline]] void recordRange();
    [[gnu::noinline]] void finishRange(); // starts the rest of a reversed range
    [[gnu::noinline]] void beginReversed();
    [[gnu::noinline]] bool nextReversed(std::uint32_t& block);
    bool fastPathNext(std::uint32_t& block);
    void fastPathMiss(std::uint32_t block, const BufferPool::Pinned& pinned);
    void waitAtOnce(Op& op);
    void maybeEnterFastPath();
    void releaseConsumed();
    void pushEntry(std::uint32_t block, std::uint32_t frame, std::uint8_t flags);
    void startOp(Op& op);

    // The backend, called directly when it is the simulated device: a run on it is pure CPU work,
    // and its reads' calls are cheaper than the virtual calls themselves.
    std::int64_t ioNow() { return m_sim != nullptr ? m_sim->now() : m_io.now(); }
    void ioStart(const ReadRequest& request) {
        if (m_sim != nullptr)
            m_sim->start(request);
        else
            m_io.start(request);
    }
    ReadOutcome ioWait(std::uint32_t ioId) { return m_sim != nullptr ? m_sim->wait(ioId) : m_io.wait(ioId); }

    // `at` < 0 stamps the event with the backend's current time. Inline: a block costs several
    // events, and each is a handful of stores into the tracer's batch and a few sums.
    void emit(EventKind kind, std::uint32_t block = 0, std::uint32_t ioId = 0, std::uint32_t nblocks = 0,
              std::uint8_t flags = 0, std::int64_t at = -1);
    void noteDistance(const Distances& before);

    StreamConfig m_config;
    DistancePolicy& m_policy;
    Mechanics m_mech;
    BufferPool& m_pool;
    IoBackend& m_io;
    SimDevice* m_sim; // m_io, if it is the simulated device
    BlockSource& m_source;
    Tracer& m_tracer;
    SummaryBuilder m_ownSummary; // fed when nobody asked for it
    SummaryBuilder* m_summary;
    StreamLimits m_limits;
    // Pins and a pending read below this need no budget check (§4.4): far enough under the backend's
    // limit, whatever other pins, the consumer and a forwarded pin add. INT_MAX where the version
    // checks once (PG17) or --max-pinned stands for the limit.
    int m_budgetCheckFrom = 0;
    ExplainIo m_ownExplainIo; // counted when nobody asked for them
    ExplainIo* m_explainIo = &m_ownExplainIo;
    bool m_policyObserves; // the policy's observesWorkload()
    Distances m_d;
    Distances m_saved{0, 0, 0}; // restore-after-reset: distance when the stream last ended
    Distances m_paused;         // pause/resume

    std::vector<Entry> m_queue;
    std::uint64_t m_queueMask = 0;
    std::uint64_t m_head = 0, m_tail = 0; // buffers [m_head, m_tail) are pinned, in callback order
    int m_pinned = 0;
    // Reads in flight, oldest first: a ring of max_ios slots, rounded up to a power of two so that
    // a look at the ring is one mask (no compare with the vector's size, reloaded from two pointers).
    std::vector<Op> m_ios;
    std::size_t m_iosMask = 0;
    std::size_t m_iosHead = 0, m_iosCount = 0;
    Op& iosAt(std::size_t i) { return m_ios[(m_iosHead + i) & m_iosMask]; }
    std::uint32_t m_nextIoId = 1;
    std::uint32_t m_ioIdStep = 1;

    std::uint32_t m_pendingStart = 0; // lowest block for a descending run
    int m_pendingLen = 0;
    PendingOrder m_pendingOrder = PendingOrder::Ascending;
    // Reversed ranges recorded and not yet reached by the consumer, oldest first (a ring), and the
    // one being handed back: buffers left, its size, and the consumer's wait for it.
    std::vector<ReversedRange> m_ranges;
    std::size_t m_rangesMask = 0;
    std::size_t m_rangesHead = 0, m_rangesCount = 0;
    std::uint32_t m_reverseLeft = 0;
    std::uint32_t m_reverseSize = 0;
    std::int64_t m_reverseWaitNs = 0;
    bool m_hasForwarded = false; // the pending read's head was pinned by the call that split before it
    BufferPool::Pinned m_forwardedPin{PinResult::Hit, 0};

    bool m_hasUngot = false;
    std::uint32_t m_ungot = 0;
    Detour m_detour = Detour::None;
    bool m_resetRequested = false;
    bool m_draining = false;      // reset() releases what is left without handing it out
    std::int64_t m_seqBlock = -1; // block that would continue the last read (advice)
    std::int64_t m_seqUntilProcessed = -1;
    bool m_holdingConsumed = false;
    std::uint32_t m_consumedFrame = 0;
    std::uint64_t m_relationBlocks = 0;
    std::int64_t m_now = 0; // backend time, refreshed whenever it can have moved
    std::uint32_t m_position = 0;
};

inline void ReadStream::emit(EventKind kind, std::uint32_t block, std::uint32_t ioId, std::uint32_t nblocks,
                             std::uint8_t flags, std::int64_t at) {
    Event& event = m_tracer.next();
    event.time_ns = at >= 0 ? at : m_now;
    event.position = m_position;
    event.block = block;
    event.io_id = ioId;
    event.kind = kind;
    event.nblocks = static_cast<std::uint8_t>(std::min<std::uint32_t>(nblocks, 255));
    event.flags = flags;
    event.stream = m_config.streamIndex;
    event.in_flight = static_cast<std::uint16_t>(m_iosCount);
    event.distance = static_cast<std::uint16_t>(m_d.readahead);
    event.combine_distance = static_cast<std::uint16_t>(m_d.combine);
    event.pinned = static_cast<std::uint16_t>(m_pinned);
    // Summed here rather than from the batch: the kind is a constant at each call, and the fields
    // were just stored.
    m_summary->add(event);
    m_tracer.commit();
}

} // namespace la

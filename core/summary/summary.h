// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "collapse_detector.h"
#include "event.h"
#include "explain_io.h"
#include "index_facts.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace la {

struct RunSummary {
    std::string policy;
    // A plan run's streams (docs/plan-runs.md), each with its own figures; the run's are theirs
    // together. Empty in a run of one stream.
    std::vector<RunSummary> streams;
    std::string mechanics;   // the version whose mechanics ran
    std::string streamFlags; // the flags the stream was opened with (--stream-flags), "" for none
    // Spans of a descending run handed back in reverse, each read whole first (cf7035 mechanics).
    std::uint64_t reversedRanges = 0;
    std::uint64_t blocks = 0; // buffers handed to the consumer
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t ios = 0;                   // read operations of the stream
    std::map<int, std::uint64_t> ioSizeHist; // blocks -> reads
    std::uint64_t deviceReads = 0;           // reads that reached the device
    // An observed run's reads told apart by their durations (docs/trace-import.md §5): those the OS
    // page cache served (its device reads are the rest), the duration that split them (absent when
    // all were one kind) and how. Not known for a modelled run, nor for a trace without durations:
    // the JSON's page_cache_reads (and such a trace's device_reads) are null then, never 0.
    bool pageCacheKnown = false;
    std::uint64_t pageCacheReads = 0;
    std::optional<double> pageCacheThresholdNs;
    std::string pageCacheBasis;
    // A kernel capture's device reads of the relation that were the kernel's read-ahead (RWBS "A").
    std::uint64_t deviceReadAheadReads = 0;
    std::uint64_t bytesRead = 0;
    std::uint64_t waits = 0;
    std::int64_t waitNs = 0;
    // An observed run's waits are what its trace shows of them (docs/trace-import.md §5): unknown
    // when it shows nothing (the figures then mean nothing, and are not 0), and what they cover.
    bool waitsUnknown = false;
    bool waitTimeUnknown = false; // the count is known, their time not (EXPLAIN without I/O Timings)
    std::string waitsScope;
    std::int64_t runtimeNs = 0;
    std::uint64_t resets = 0; // of the stream (not those that kept the reads before it apart)
    // The distance each reset started the stream again at (1, or the distance restored), as a mean;
    // none for a run that never reset.
    std::optional<double> distanceAfterResetMean;
    // Of reads and waits, those of the blocks read before the stream started (--stream-start-after,
    // the index ring's start rule): the run's, not EXPLAIN's.
    std::uint64_t readsBeforeStream = 0;
    std::uint64_t waitsBeforeStream = 0;
    double distanceMean = 0.0; // sampled as each buffer is handed out (0 after the end counts)
    // Buffers handed out at distance 0: after their scan's end, the stream no longer looking ahead
    // (docs/read-stream-model.md §1, "Distance"); a nested loop's short rescans have many.
    std::uint64_t blocksAfterEnd = 0;
    double distanceTimeMean = 0.0; // weighted by time
    int distanceMax = 0;
    double fracDistanceLe2 = 0.0;
    double pinnedMean = 0.0;
    double inFlightMean = 0.0;
    int maxPinned = 0;
    int ioCombineLimit = 0;
    // The model's shared buffers: its pool's size, the buffer access strategy the stream read
    // through ("BULKREAD", "none") and its ring, and how many of the relation's blocks were valid
    // in the pool when the run ended (docs/read-stream-model.md §14).
    std::uint64_t sharedBuffers = 0;
    std::string strategy;
    int ringBuffers = 0;
    std::uint64_t residentAfter = 0;
    std::vector<CollapseInterval> collapseIntervals;
    ExplainIo explainIo; // EXPLAIN (ANALYZE, IO)'s read-stream figures
    std::string ioMethodUsed = "sim";
    std::string fallbackReason; // fallbacks taken (io_uring to worker, O_DIRECT to buffered), "; "-joined
    bool directIo = false;      // reads were O_DIRECT (real I/O: until the end of the run)
    std::uint64_t pagesVerified = 0;
    // Fraction of the file in the OS page cache when the scan started and when it ended (real I/O only).
    std::optional<double> osCacheResidentBefore;
    std::optional<double> osCacheResidentAfter;
    // io_method=worker's I/O workers at the start and the end of the run, and the most at once (0: none).
    int ioWorkersStart = 0;
    int ioWorkersEnd = 0;
    int ioWorkersPeak = 0;
    std::optional<pg::IndexFacts> pgIndex; // a PostgreSQL index scan's facts
    // The model of an imported trace: the cache state the trace gave it, in words, and the reads
    // that trace and visits disagree on (core/observed/traced_cache.h).
    std::string cacheFromTrace;
    std::uint64_t traceDisagreements = 0;
    // An observed run's server figures from the query's EXPLAIN output, as compact JSON (the summary
    // JSON's "postgresql_explain"); empty without one.
    std::string serverExplain;
    // The model's misses against PostgreSQL's shared read of the relation and the trace's reads, as
    // compact JSON (app/experiment/reconciliation.h: the summary JSON's "reconciliation"); empty where
    // nothing was compared.
    std::string reconciliation;
    bool cancelled = false;
    std::string error; // non-empty if the run stopped on an error (the trace up to it is kept)
    // A run repeated (--repeat, docs/repeats.md): every repeat's summary in the order they ran, this
    // one being the median repeat's (by run time). Empty for a run that ran once.
    std::vector<RunSummary> repeats;
};

// An imported trace's run (observed/observed_summary.h): it has reads, not the stream's state.
inline bool isObservedRun(const RunSummary& summary) {
    return summary.policy == "observed";
}

// Builds a run's summary from its event stream, so any consumer of the trace (CLI, GUI, a saved
// CSV) agrees on what the numbers mean. A run's read stream feeds it each event as it emits it
// (add(), inline: each call site's kind is a constant there); any other trace comes in batches.
class SummaryBuilder final : public EventSink {
public:
    explicit SummaryBuilder(int collapseWindow = 32) : m_collapses(collapseWindow) {}
    void onEvents(std::span<const Event> batch) override;
    void add(const Event& event) { accumulate(m_totals, event); }
    // A reversed range recorded by the stream (no event marks one: its reads and waits are events).
    void countReversedRange() { ++m_reversedRanges; }
    // Fills the event-derived fields of `summary`.
    void finish(RunSummary& summary);

private:
    // The running sums. A batch works on a local copy: through the members every event would wait
    // on the previous event's store (and reload the int64 ones after each store into m_kinds,
    // which may alias them).
    struct Totals {
        // Signed: a distance converts to a double in one instruction, where an unsigned 64-bit value
        // needs a test for the top bit first.
        std::int64_t lastTime = 0, lastDistance = 0;
        double distanceTimeIntegral = 0.0;
        // The per-buffer sums are whole numbers: integer sums give exactly the doubles the
        // per-event sums gave.
        std::uint64_t distanceSum = 0, pinnedSum = 0, inFlightSum = 0;
        std::uint64_t le2 = 0, atZero = 0, resetDistanceSum = 0;
        std::uint16_t distanceMax = 0;
        // The read the consumer is blocked on and since when (a wait always ends before the next one).
        std::uint32_t waitIo = 0;
        std::int64_t waitStart = -1, waitNs = 0;
    };

    // One event into `totals` and the builder's tables.
    void accumulate(Totals& totals, const Event& event) {
        if (event.time_ns > totals.lastTime) {
            totals.distanceTimeIntegral += static_cast<double>(totals.lastDistance) *
                                           static_cast<double>(event.time_ns - totals.lastTime);
            totals.lastTime = event.time_ns;
        }
        totals.lastDistance = event.distance;
        // Most kinds are only counted: one table increment, and a switch rather than a chain of
        // compares for the five kinds that carry figures.
        ++m_kinds[static_cast<std::uint8_t>(event.kind)];
        switch (event.kind) {
        case EventKind::Consumed:
            totals.distanceSum += event.distance;
            totals.pinnedSum += event.pinned;
            totals.inFlightSum += event.in_flight;
            totals.distanceMax = std::max(totals.distanceMax, event.distance);
            totals.le2 += event.distance <= 2 ? 1 : 0;
            totals.atZero += event.distance == 0 ? 1 : 0;
            m_collapses.onConsumed(event);
            break;
        case EventKind::ReadStarted:
            ++m_readsBySize[event.nblocks];
            break;
        case EventKind::Reset:
            totals.resetDistanceSum += event.distance;
            break;
        case EventKind::Waited:
            totals.waitIo = event.io_id;
            totals.waitStart = event.time_ns;
            break;
        case EventKind::ReadCompleted:
            if (totals.waitStart >= 0 && event.io_id == totals.waitIo) {
                totals.waitNs += event.time_ns - totals.waitStart;
                totals.waitStart = -1;
            }
            break;
        default:
            break;
        }
    }

    std::uint64_t count(EventKind kind) const;

    CollapseDetector m_collapses;
    Totals m_totals;
    std::array<std::uint64_t, 256> m_kinds{}; // events by kind
    // Reads by size in blocks (an event's nblocks is a byte), counted per read into an array (a map
    // lookup per read is measurable in the engine's loop); it becomes RunSummary::ioSizeHist at finish().
    std::array<std::uint64_t, 256> m_readsBySize{};
    std::uint64_t m_reversedRanges = 0;
};

} // namespace la

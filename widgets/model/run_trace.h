// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "collapse_detector.h"
#include "device_trace.h"
#include "event.h"
#include "extent_index.h"
#include "io/chunked_column.h"
#include "io/spill_file.h"
#include "read_record.h"
#include "state_buckets.h"
#include "summary.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace la {

// The event kinds the views read (append() ignores the rest). The worker drops every other kind before
// posting, so only these cross to the model thread: a run emits several times as many events in all.
inline constexpr std::array kViewedEventKinds{EventKind::Consumed,          EventKind::ReadStarted,
                                              EventKind::EndOfStream,       EventKind::Reset,
                                              EventKind::DeviceReadStarted, EventKind::DeviceReadCompleted};
constexpr bool isViewedEvent(EventKind kind) {
    for (const EventKind viewed : kViewedEventKinds)
        if (kind == viewed)
            return true;
    return false;
}

// The stream's limits for a policy, drawn as reference lines, and the run's collapse rule.
struct RunLimits {
    int maxPinned = 0;
    int ioCombineLimit = 0;
    int collapseWindow = 32; // RunConfig::collapseWindow
    int ringBuffers = 0;     // the BULKREAD ring the run read through (0: none), known from its summary
    // The stream drawn of a plan run's several (docs/plan-runs.md): the others' events are not this
    // trace's. 0 for a run of one stream.
    std::uint8_t stream = 0;
};

// Everything the views need from one run, kept compact instead of keeping its events (a 10 M-block
// run has ~40 M of them, 1.3 GB): per position the block and its hit/miss/waited flags (5 bytes,
// exact, for the raster), the state series in StateBuckets (bounded), and per read 17 bytes (exact,
// for the request and size plots). Fed from the worker's event batches (in the window, on the model
// thread: model_thread.h). With spillTo(), the exact columns live on disk but for a few chunks (a
// 100 M-block run would otherwise hold 2.2 GB of them); the bounded aggregates stay in memory. One
// thread at a time: in the window, whoever holds the model's lock.
class RunTrace {
public:
    // Reads are stored in chunks of this many; a chunk's first read is always in memory.
    static constexpr std::size_t kReadChunk = ChunkedColumn<std::int64_t>::kChunk;

    explicit RunTrace(std::string label, RunLimits limits = {},
                      std::size_t bucketCapacity = std::size_t(1) << 20);

    // Keeps the exact columns in a spill file in `dir` (a private directory) from now on.
    void spillTo(const std::string& dir);
    // Why the columns could not all go to (or come back from) the spill file, or empty.
    std::string storageProblem() const { return m_spill ? m_spill->broken() : std::string(); }
    // Bytes of the exact columns on disk.
    std::uint64_t spilledBytes() const { return m_spill ? m_spill->size() : 0; }

    void append(std::span<const Event> events);

    const std::string& label() const { return m_label; }
    // An imported trace's reads: no distance, no hits or misses, only reads and their times.
    bool observed() const { return m_observed; }
    void markObserved() { m_observed = true; }
    // A kernel capture's device reads beside the observed reads; empty for every other run.
    const DeviceTrace& device() const { return m_device; }
    const RunLimits& limits() const { return m_limits; }
    const StateBuckets& state() const { return m_state; }

    std::uint64_t positions() const { return m_blocks.size(); }
    std::uint32_t blockAt(std::uint64_t position) const { return m_blocks[position]; }
    std::uint8_t flagsAt(std::uint64_t position) const { return m_flags[position]; }

    std::size_t reads() const { return m_readStart.size(); }
    ReadRecord read(std::size_t index) const {
        return {m_readStart[index], m_readPosition[index], m_readBlock[index], m_readBlocks[index]};
    }
    std::int64_t readStartNs(std::size_t index) const { return m_readStart[index]; }
    std::uint32_t readPosition(std::size_t index) const { return m_readPosition[index]; }
    // Reads of each size: index = blocks (0..255), value = count.
    const std::array<std::uint64_t, 256>& readSizeCounts() const { return m_readSizes; }
    int largestRead() const { return m_largestRead; }

    // Time of the last event.
    std::int64_t endTimeNs() const { return m_endNs; }
    // Position p is handed out at timeNsAt(p) and lasts until timeNsAt(p + 1); the last one lasts
    // until the end of the trace. Fractional positions interpolate.
    double timeNsAt(double position) const;
    double positionAtTimeNs(double timeNs) const;

    // Blocks touched by positions [first, end) / by reads [first, end).
    Extent blockExtent(std::uint64_t first, std::uint64_t end) const;
    Extent readExtent(std::size_t first, std::size_t end) const;

    // Collapses so far, found by the summary's rule as the events arrive (the last may still be going).
    std::size_t collapseCount() const { return m_collapses.intervals().size() + (m_openCollapse ? 1 : 0); }
    CollapseInterval collapse(std::size_t index) const {
        return index < m_collapses.intervals().size() ? m_collapses.intervals()[index] : *m_openCollapse;
    }

    // The stream's resets (a nested loop's rescans), each at the position of the first buffer after it,
    // in order; and the first at or after `position` (resets() if none).
    std::size_t resets() const { return m_resets.size(); }
    std::uint32_t resetPosition(std::size_t index) const { return m_resets[index]; }
    std::size_t firstResetAt(double position) const;

    // A plan run's streams (docs/plan-runs.md): how many have shown up (1 in a run of one stream),
    // and each one's state by its own positions, coarser than state() (kStreamBuckets buckets at
    // most) but for the shown stream, whose state() it is; null for a stream with no buffer yet.
    static constexpr std::size_t kStreamBuckets = 4096;
    std::size_t streams() const { return m_streams; }
    const StateBuckets* streamState(std::size_t stream) const;

    // The summary also brings the run's effective pin limit: the BULKREAD ring, chosen once the
    // relation was open, may cap max_pinned below what the settings alone give.
    void setSummary(const RunSummary& summary);
    const std::optional<RunSummary>& summary() const { return m_summary; }

private:
    void addPosition(const Event& event);
    void addStreamSample(const Event& event); // another stream's buffer
    void addRead(const Event& event);
    // Time span [t0, t1] of bucket b and the positions [p0, p1] it maps onto.
    void bucketFrame(std::size_t bucket, double& t0, double& t1, double& p0, double& p1) const;

    std::string m_label;
    RunLimits m_limits;
    std::unique_ptr<SpillFile> m_spill; // before the columns: they point at it
    StateBuckets m_state;
    ChunkedColumn<std::uint32_t> m_blocks;
    ChunkedColumn<std::uint8_t> m_flags;
    ExtentIndex m_blockExtents;
    ChunkedColumn<std::int64_t> m_readStart;
    ChunkedColumn<std::uint32_t> m_readPosition;
    ChunkedColumn<std::uint32_t> m_readBlock;
    ChunkedColumn<std::uint8_t> m_readBlocks;
    ExtentIndex m_readExtents;
    std::array<std::uint64_t, 256> m_readSizes{};
    int m_largestRead = 0;
    std::int64_t m_endNs = 0;
    CollapseDetector m_collapses;
    std::optional<CollapseInterval> m_openCollapse; // cached: collapse() is called per interval and frame
    std::optional<RunSummary> m_summary;
    ChunkedColumn<std::uint32_t> m_resets; // exact, spilled: --reset-every 1 resets at every block
    bool m_observed = false;
    DeviceTrace m_device;
    std::vector<std::unique_ptr<StateBuckets>> m_otherStreams; // by stream; none for the shown one
    std::size_t m_streams = 1;
};

} // namespace la

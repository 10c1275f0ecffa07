// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_trace.h"

#include <algorithm>

namespace la {

RunTrace::RunTrace(std::string label, RunLimits limits, std::size_t bucketCapacity)
    : m_label(std::move(label)), m_limits(limits), m_state(bucketCapacity),
      m_collapses(limits.collapseWindow), m_streams(std::size_t{limits.stream} + 1) {}

void RunTrace::spillTo(const std::string& dir) {
    m_spill = std::make_unique<SpillFile>(dir);
    m_blocks.spillTo(m_spill.get());
    m_flags.spillTo(m_spill.get());
    m_readStart.spillTo(m_spill.get());
    m_readPosition.spillTo(m_spill.get());
    m_readBlock.spillTo(m_spill.get());
    m_readBlocks.spillTo(m_spill.get());
    m_resets.spillTo(m_spill.get());
}

void RunTrace::append(std::span<const Event> events) {
    for (const Event& event : events) {
        if (!isViewedEvent(event.kind))
            continue;
        if (event.stream != m_limits.stream) [[unlikely]] {
            if (event.kind == EventKind::Consumed)
                addStreamSample(event);
            continue;
        }
        m_endNs = std::max(m_endNs, event.time_ns);
        if (event.kind == EventKind::Consumed)
            addPosition(event);
        else if (event.kind == EventKind::ReadStarted)
            addRead(event);
        else if (event.kind == EventKind::Reset)
            m_resets.push_back(event.position);
        else
            m_device.add(event);
    }
    m_openCollapse = m_collapses.current();
}

std::size_t RunTrace::firstResetAt(double position) const {
    const auto firstNotBelow = [&](std::size_t lo, std::size_t hi, std::size_t step) {
        while (lo < hi) {
            const std::size_t mid = (lo + hi) / 2;
            if (static_cast<double>(m_resets[mid * step]) < position)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    };
    // Over the chunks' first resets, which stay in memory when the rest are on disk, then inside the
    // one chunk that holds the answer: a search loads a single chunk.
    constexpr std::size_t step = ChunkedColumn<std::uint32_t>::kChunk;
    const std::size_t chunk = firstNotBelow(0, (m_resets.size() + step - 1) / step, step);
    if (chunk == 0)
        return 0;
    return firstNotBelow((chunk - 1) * step, std::min(m_resets.size(), chunk * step), 1);
}

namespace {

StateSample sampleOf(const Event& event) {
    StateSample sample;
    sample.timeNs = event.time_ns;
    sample.values = {event.distance, event.combine_distance, event.pinned, event.in_flight};
    sample.miss = (event.flags & event_flag::miss) != 0;
    sample.waited = (event.flags & event_flag::waited) != 0;
    return sample;
}

} // namespace

const StateBuckets* RunTrace::streamState(std::size_t stream) const {
    if (stream == m_limits.stream)
        return &m_state;
    return stream < m_otherStreams.size() ? m_otherStreams[stream].get() : nullptr;
}

void RunTrace::addStreamSample(const Event& event) {
    // Bounded: a stream is a byte below kMaxPlanStreams (the engine's and a session's events).
    const std::size_t stream = std::min<std::size_t>(event.stream, kMaxPlanStreams - 1);
    if (stream >= m_otherStreams.size())
        m_otherStreams.resize(stream + 1);
    if (!m_otherStreams[stream])
        m_otherStreams[stream] = std::make_unique<StateBuckets>(kStreamBuckets);
    m_otherStreams[stream]->add(sampleOf(event));
    m_streams = std::max(m_streams, stream + 1);
}

void RunTrace::addPosition(const Event& event) {
    m_state.add(sampleOf(event));
    m_blocks.push_back(event.block);
    m_flags.push_back(event.flags);
    m_blockExtents.add(event.block, event.block + 1);
    m_collapses.onConsumed(event);
}

void RunTrace::addRead(const Event& event) {
    m_readStart.push_back(event.time_ns);
    m_readPosition.push_back(event.position);
    m_readBlock.push_back(event.block);
    m_readBlocks.push_back(event.nblocks);
    m_readExtents.add(event.block, event.block + std::max<std::uint32_t>(event.nblocks, 1));
    ++m_readSizes[event.nblocks];
    m_largestRead = std::max<int>(m_largestRead, event.nblocks);
}

void RunTrace::bucketFrame(std::size_t bucket, double& t0, double& t1, double& p0, double& p1) const {
    const bool last = bucket + 1 >= m_state.size();
    t0 = static_cast<double>(m_state.firstTime(bucket));
    t1 = static_cast<double>(last ? m_endNs : m_state.firstTime(bucket + 1));
    p0 = static_cast<double>(m_state.bucketStart(bucket));
    p1 = static_cast<double>(last ? positions() : m_state.bucketStart(bucket + 1));
}

double RunTrace::timeNsAt(double position) const {
    if (positions() == 0)
        return 0.0;
    if (position <= 0.0)
        return static_cast<double>(m_state.firstTime(0));
    if (position >= static_cast<double>(positions()))
        return static_cast<double>(m_endNs);
    double t0 = 0, t1 = 0, p0 = 0, p1 = 0;
    bucketFrame(m_state.bucketOf(static_cast<std::uint64_t>(position)), t0, t1, p0, p1);
    return p1 > p0 ? t0 + (position - p0) / (p1 - p0) * (t1 - t0) : t0;
}

double RunTrace::positionAtTimeNs(double timeNs) const {
    const std::size_t n = m_state.size();
    if (n == 0 || timeNs <= static_cast<double>(m_state.firstTime(0)))
        return 0.0;
    if (timeNs >= static_cast<double>(m_endNs))
        return static_cast<double>(positions());
    // The last bucket that starts at or before `timeNs` (bucket times never decrease).
    std::size_t lo = 0;
    std::size_t hi = n;
    while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        if (static_cast<double>(m_state.firstTime(mid)) <= timeNs)
            lo = mid;
        else
            hi = mid;
    }
    double t0 = 0, t1 = 0, p0 = 0, p1 = 0;
    bucketFrame(lo, t0, t1, p0, p1);
    if (t1 <= t0)
        return p1;
    return std::min(p1, p0 + (timeNs - t0) / (t1 - t0) * (p1 - p0));
}

Extent RunTrace::blockExtent(std::uint64_t first, std::uint64_t end) const {
    return m_blockExtents.query(first, end, [this](std::size_t i) {
        Extent e;
        e.add(m_blocks[i], m_blocks[i] + 1);
        return e;
    });
}

Extent RunTrace::readExtent(std::size_t first, std::size_t end) const {
    return m_readExtents.query(first, end, [this](std::size_t i) {
        Extent e;
        e.add(m_readBlock[i], m_readBlock[i] + std::max<std::uint32_t>(m_readBlocks[i], 1));
        return e;
    });
}

void RunTrace::setSummary(const RunSummary& summary) {
    m_summary = summary;
    if (m_limits.maxPinned > 0 && summary.maxPinned > 0) { // a modelled run: observed ones have no limits
        m_limits.maxPinned = summary.maxPinned;
        m_limits.ringBuffers = summary.ringBuffers;
    }
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "state_buckets.h"

#include <algorithm>

namespace la {

StateBuckets::StateBuckets(std::size_t capacity)
    : m_capacity(std::max<std::size_t>(2, capacity & ~std::size_t(1))) {
    // Reserved once (address space only until used): regrowing a vector of a million buckets would
    // stall the model thread (and so the panes) copying it.
    m_buckets.reserve(m_capacity);
    m_missesBefore.reserve(m_capacity);
}

void StateBuckets::add(const StateSample& sample) {
    if (m_positions % m_width == 0) {
        // Full: merge. The capacity is even, so the new position still starts a bucket.
        if (m_buckets.size() == m_capacity)
            mergePairs();
        openBucket(sample);
    } else {
        Bucket& b = m_buckets.back();
        for (std::size_t s = 0; s < kStateSeriesCount; ++s) {
            b.lo[s] = std::min(b.lo[s], sample.values[s]);
            b.hi[s] = std::max(b.hi[s], sample.values[s]);
        }
        b.misses += sample.miss ? 1 : 0;
        b.waits += sample.waited ? 1 : 0;
    }
    for (std::size_t s = 0; s < kStateSeriesCount; ++s)
        m_max[s] = std::max(m_max[s], sample.values[s]);
    m_misses += sample.miss ? 1 : 0;
    ++m_positions;
}

void StateBuckets::openBucket(const StateSample& sample) {
    m_buckets.push_back(
        Bucket{sample.timeNs, sample.values, sample.values, sample.miss ? 1u : 0u, sample.waited ? 1u : 0u});
    m_missesBefore.push_back(m_misses);
}

void StateBuckets::mergePairs() {
    // As a run is fed, at 1, 2, 4, ... M positions: written so that the compiler keeps the pair in
    // registers and writes each field once (half the time of copying a bucket and merging into it).
    const std::size_t half = m_buckets.size() / 2;
    Bucket* buckets = m_buckets.data();
    for (std::size_t i = 0; i < half; ++i) {
        const Bucket a = buckets[2 * i];
        const Bucket b = buckets[2 * i + 1];
        Bucket& merged = buckets[i];
        merged.time = a.time;
        for (std::size_t s = 0; s < kStateSeriesCount; ++s) {
            merged.lo[s] = a.lo[s] < b.lo[s] ? a.lo[s] : b.lo[s];
            merged.hi[s] = a.hi[s] > b.hi[s] ? a.hi[s] : b.hi[s];
        }
        merged.misses = a.misses + b.misses;
        merged.waits = a.waits + b.waits;
    }
    std::uint64_t* before = m_missesBefore.data();
    for (std::size_t i = 0; i < half; ++i)
        before[i] = before[2 * i];
    m_buckets.resize(half);
    m_missesBefore.resize(half);
    m_width *= 2;
}

std::uint64_t StateBuckets::misses(std::size_t first, std::size_t end) const {
    end = std::min(end, size());
    if (first >= end)
        return 0;
    return (end < size() ? m_missesBefore[end] : m_misses) - m_missesBefore[first];
}

StateSpan StateBuckets::span(std::size_t first, std::size_t end) const {
    StateSpan result;
    end = std::min(end, size());
    if (first >= end)
        return result;
    result.firstPosition = bucketStart(first);
    result.endPosition = std::min<std::uint64_t>(bucketStart(end), m_positions);
    result.lo.fill(UINT16_MAX);
    for (std::size_t i = first; i < end; ++i) {
        const Bucket& b = m_buckets[i];
        for (std::size_t s = 0; s < kStateSeriesCount; ++s) {
            result.lo[s] = std::min(result.lo[s], b.lo[s]);
            result.hi[s] = std::max(result.hi[s], b.hi[s]);
        }
        result.misses += b.misses;
        result.waits += b.waits;
    }
    return result;
}

} // namespace la

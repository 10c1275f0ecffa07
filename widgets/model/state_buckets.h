// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace la {

// Stream state sampled as each buffer is handed out, as PostgreSQL's EXPLAIN samples it (and as the
// run summary does, so plots and numbers agree).
enum class StateSeries : std::uint8_t { Distance, CombineDistance, Pinned, InFlight };
inline constexpr std::size_t kStateSeriesCount = 4;

struct StateSample {
    std::int64_t timeNs = 0;
    std::array<std::uint16_t, kStateSeriesCount> values{};
    bool miss = false;
    bool waited = false;
};

// A stretch of consecutive positions: each series' range, the misses and waits, the time covered.
struct StateSpan {
    std::uint64_t firstPosition = 0;
    std::uint64_t endPosition = 0; // exclusive
    std::array<std::uint16_t, kStateSeriesCount> lo{};
    std::array<std::uint16_t, kStateSeriesCount> hi{};
    std::uint64_t misses = 0;
    std::uint64_t waits = 0;

    std::uint64_t blocks() const { return endPosition - firstPosition; }
    bool empty() const { return endPosition <= firstPosition; }
};

// The per-position state of a run, reduced to buckets of width() consecutive positions holding each
// series' min/max and the miss/wait counts. While the run fits in `capacity` buckets a bucket is one
// position (exact, which covers every preset at its default and published size); past that,
// neighbours merge pairwise and the width doubles, so at 40 bytes a bucket (with its running miss
// count) the whole stays under 40 MB however long the run is. Views never need more: they draw per
// pixel anyway.
class StateBuckets {
public:
    explicit StateBuckets(std::size_t capacity = std::size_t(1) << 20);

    // Positions arrive in order: 0, 1, 2, ...
    void add(const StateSample& sample);

    std::uint64_t positions() const { return m_positions; }
    std::uint64_t width() const { return m_width; }
    std::size_t size() const { return m_buckets.size(); }
    std::size_t bucketOf(std::uint64_t position) const {
        return static_cast<std::size_t>(position / m_width);
    }
    std::uint64_t bucketStart(std::size_t bucket) const { return bucket * m_width; }
    std::int64_t firstTime(std::size_t bucket) const { return m_buckets[bucket].time; }
    std::uint16_t lo(StateSeries series, std::size_t bucket) const {
        return m_buckets[bucket].lo[static_cast<std::size_t>(series)];
    }
    std::uint16_t hi(StateSeries series, std::size_t bucket) const {
        return m_buckets[bucket].hi[static_cast<std::size_t>(series)];
    }
    // Buckets [first, end) merged into one span (empty if the range is).
    StateSpan span(std::size_t first, std::size_t end) const;
    // The misses in buckets [first, end), at once however many (a collapse's label asks every frame).
    std::uint64_t misses(std::size_t first, std::size_t end) const;
    // Largest sample of `series` so far (0 if never above zero, e.g. the combine distance before PG19).
    std::uint16_t maxValue(StateSeries series) const { return m_max[static_cast<std::size_t>(series)]; }

private:
    void openBucket(const StateSample& sample);
    void mergePairs();

    // One bucket: 32 bytes, appended with a single push_back (the model thread adds millions).
    struct Bucket {
        std::int64_t time;
        std::array<std::uint16_t, kStateSeriesCount> lo;
        std::array<std::uint16_t, kStateSeriesCount> hi;
        std::uint32_t misses;
        std::uint32_t waits;
    };

    std::size_t m_capacity;
    std::uint64_t m_width = 1;
    std::uint64_t m_positions = 0;
    std::vector<Bucket> m_buckets;
    std::vector<std::uint64_t> m_missesBefore; // per bucket: the misses in the buckets before it
    std::uint64_t m_misses = 0;
    std::array<std::uint16_t, kStateSeriesCount> m_max{};
};

} // namespace la

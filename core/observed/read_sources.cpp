// SPDX-License-Identifier: GPL-3.0-or-later
#include "read_sources.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

namespace la {

namespace {

// Read times on a log scale, a quarter octave a bin, from 1 ns to 2^40 ns (18 minutes): a page-cache
// hit and a device read lie octaves apart, and a log scale gives both modes the same width.
constexpr std::size_t kBinsPerOctave = 4;
constexpr std::size_t kBins = 40 * kBinsPerOctave;

// The page-cache yardstick: a system call and its copy from memory, generously (measured under
// strace -T, which slows each call: 8 kB hits take 6 to 20 µs there, a few without it).
constexpr std::int64_t kCeilingBaseNs = 25'000;
constexpr std::int64_t kCeilingPerBlockNs = 2'000;

// A side of a valley needs this many reads, and 1 in 256 of them, to be a kind of read rather than
// outliers (a hit preempted under strace, one slow device read).
constexpr std::uint64_t kMinModeReads = 3;
constexpr std::uint64_t kMinModeShare = 256;
// A valley is at most a quarter as high as the lower of the highest bins on its two sides.
constexpr std::uint64_t kValleyDepth = 4;

std::size_t binOf(std::int64_t ns) {
    const double clamped = std::max(1.0, static_cast<double>(ns));
    const double bin = std::floor(std::log2(clamped) * static_cast<double>(kBinsPerOctave));
    return std::min(static_cast<std::size_t>(bin), kBins - 1);
}

// The time at a bin's lower edge; a fraction gives a point inside it.
double binEdgeNs(double bin) {
    return std::exp2(bin / static_cast<double>(kBinsPerOctave));
}

std::int64_t median(std::vector<std::int64_t>& durations) {
    if (durations.empty())
        return 0;
    const auto middle = durations.begin() + static_cast<std::ptrdiff_t>(durations.size() / 2);
    std::nth_element(durations.begin(), middle, durations.end());
    return *middle;
}

// The histogram of the reads' durations and, per bin, the reads as fast as a page-cache hit of
// their size; both as running sums (bin i's are at [i + 1] - [i]).
struct Histogram {
    std::array<std::uint64_t, kBins> counts{};
    std::array<std::uint64_t, kBins + 1> sum{};
    std::array<std::uint64_t, kBins + 1> sumUnderCeiling{};

    explicit Histogram(std::span<const ObservedRead> reads) {
        std::array<std::uint64_t, kBins> under{};
        for (const ObservedRead& read : reads) {
            const std::size_t bin = binOf(read.durationNs);
            ++counts[bin];
            if (read.durationNs <= pageCacheCeilingNs(read.nblocks))
                ++under[bin];
        }
        for (std::size_t i = 0; i < kBins; ++i) {
            sum[i + 1] = sum[i] + counts[i];
            sumUnderCeiling[i + 1] = sumUnderCeiling[i] + under[i];
        }
    }
    // Four times the bin smoothed with its neighbours (1-2-1): sparse traces have ragged bins.
    std::uint64_t smoothed(std::size_t bin) const {
        return (bin > 0 ? counts[bin - 1] : 0) + 2 * counts[bin] + (bin + 1 < kBins ? counts[bin + 1] : 0);
    }
};

// The first and last bin of a valley: one bin, or a flat run of equally deep bins (an empty gap).
struct Valley {
    std::size_t first = 0, last = 0;
};

// The deepest valley between a mostly-fast side and a mostly-slow side, if there is one.
std::optional<Valley> deepestValley(const Histogram& h, std::uint64_t reads) {
    std::size_t lo = 0, hi = kBins - 1;
    while (h.counts[lo] == 0)
        ++lo;
    while (h.counts[hi] == 0)
        --hi;
    if (hi < lo + 2)
        return std::nullopt;
    // The highest smoothed bin up to each bin, and from each bin on.
    std::array<std::uint64_t, kBins> peakLeft{}, peakRight{};
    for (std::size_t i = lo; i <= hi; ++i)
        peakLeft[i] = std::max(i > lo ? peakLeft[i - 1] : 0, h.smoothed(i));
    for (std::size_t i = hi + 1; i-- > lo;)
        peakRight[i] = std::max(i < hi ? peakRight[i + 1] : 0, h.smoothed(i));

    const std::uint64_t minMode = std::max(kMinModeReads, (reads + kMinModeShare - 1) / kMinModeShare);
    std::uint64_t bestScore = 0;
    std::optional<Valley> best;
    for (std::size_t i = lo + 1; i < hi; ++i) {
        const std::uint64_t peak = std::min(peakLeft[i - 1], peakRight[i + 1]);
        const std::uint64_t floor = h.smoothed(i);
        if (floor * kValleyDepth > peak)
            continue;
        const std::uint64_t fast = h.sum[i], slow = reads - h.sum[i + 1];
        if (fast < minMode || slow < minMode)
            continue;
        // Two kinds of read only if the fast side is mostly as fast as a page-cache hit and the
        // slow side mostly slower: else both are one kind (small and large reads, or a tail).
        const std::uint64_t fastUnder = h.sumUnderCeiling[i];
        const std::uint64_t slowUnder = h.sumUnderCeiling[kBins] - h.sumUnderCeiling[i + 1];
        if (2 * fastUnder <= fast || 2 * slowUnder >= slow)
            continue;
        const std::uint64_t score = peak - floor;
        if (!best || score > bestScore) {
            bestScore = score;
            best = Valley{i, i};
        } else if (score == bestScore && best->last == i - 1) {
            best->last = i;
        }
    }
    return best;
}

} // namespace

std::int64_t pageCacheCeilingNs(std::uint32_t nblocks) {
    return kCeilingBaseNs + kCeilingPerBlockNs * static_cast<std::int64_t>(nblocks);
}

bool ReadSources::fromPageCache(const ObservedRead& read) const {
    switch (basis) {
    case Basis::Valley:
        return read.durationNs <= thresholdNs;
    case Basis::AllPageCache:
        return true;
    case Basis::AllDevice:
    case Basis::NotKnown:
        break;
    }
    return false;
}

std::string ReadSources::basisText() const {
    switch (basis) {
    case Basis::NotKnown:
        break;
    case Basis::Valley:
        return "the valley between the trace's fast reads (median " + durationText(pageCacheMedianNs) +
               ") and its slow ones (median " + durationText(deviceMedianNs) + ")";
    case Basis::AllPageCache:
        return "one kind of read (median " + durationText(pageCacheMedianNs) +
               "), as fast as a copy from the page cache";
    case Basis::AllDevice:
        return "one kind of read (median " + durationText(deviceMedianNs) +
               "), slower than a copy from the page cache";
    }
    return "not told apart: the trace has no read durations";
}

ReadSources classifyReadSources(std::span<const ObservedRead> reads, bool hasDurations) {
    ReadSources sources;
    if (!hasDurations || reads.empty())
        return sources;
    const Histogram histogram(reads);
    if (const std::optional<Valley> valley = deepestValley(histogram, reads.size())) {
        sources.basis = ReadSources::Basis::Valley;
        // The middle of the valley on the log scale: its lower edge to its upper one.
        sources.thresholdNs =
            std::llround(binEdgeNs(static_cast<double>(valley->first + valley->last + 1) / 2.0));
    } else {
        const std::uint64_t under = histogram.sumUnderCeiling[kBins];
        sources.basis =
            2 * under > reads.size() ? ReadSources::Basis::AllPageCache : ReadSources::Basis::AllDevice;
    }
    std::vector<std::int64_t> pageCache, device;
    for (const ObservedRead& read : reads)
        (sources.fromPageCache(read) ? pageCache : device).push_back(read.durationNs);
    sources.pageCacheReads = pageCache.size();
    sources.deviceReads = device.size();
    sources.pageCacheMedianNs = median(pageCache);
    sources.deviceMedianNs = median(device);
    return sources;
}

std::string durationText(std::int64_t ns) {
    const double value = static_cast<double>(ns);
    char text[32];
    if (value < 10e3)
        std::snprintf(text, sizeof text, "%.1f µs", value / 1e3);
    else if (value < 1e6)
        std::snprintf(text, sizeof text, "%.0f µs", value / 1e3);
    else if (value < 1e9)
        std::snprintf(text, sizeof text, "%.1f ms", value / 1e6);
    else
        std::snprintf(text, sizeof text, "%.1f s", value / 1e9);
    return text;
}

} // namespace la

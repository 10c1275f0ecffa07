// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_profile.h"

#include "input_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace la {

const std::array<std::string_view, kProfileLevels.size()> kProfileLevelNames = {
    "min", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "p99.9", "max"};

namespace {

constexpr int kMaxDepth = 1024;
constexpr double kMaxLatencyNs = 60e9; // a read that takes over a minute is not a device figure
constexpr double kMaxIops = 1e9;

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// Where `depth` falls among `figures` (ascending depth): the figure at or below it, and how far
// towards the next one (0 = at it). Depths outside the measured range take the nearest figure.
std::pair<std::size_t, double> bracket(const std::vector<LatencyFigures>& figures, int depth) {
    if (depth <= figures.front().depth)
        return {0, 0.0};
    for (std::size_t i = 0; i + 1 < figures.size(); ++i)
        if (depth < figures[i + 1].depth)
            return {i, double(depth - figures[i].depth) / double(figures[i + 1].depth - figures[i].depth)};
    return {figures.size() - 1, 0.0};
}

std::string checkFigures(const LatencyFigures& f, int parallelism, const std::string& where) {
    if (f.depth < 1 || f.depth > kMaxDepth)
        return where + ": depth " + std::to_string(f.depth) + " is outside 1.." + std::to_string(kMaxDepth);
    // By Little's law the reads under way (the depth, at most the device's parallelism) over the
    // rate is the time a read takes: at a lower rate it would take over a minute (finish() derives
    // the sequential reads' service time so, and a slower read is not a device's figure).
    const double leastIops = double(std::min(f.depth, parallelism)) / (kMaxLatencyNs / 1e9);
    if (!std::isfinite(f.iops) || f.iops < leastIops || f.iops > kMaxIops)
        return where + ": iops " + number(f.iops) + " is outside " + number(leastIops) +
               "..1e+09 (reads a second; fewer at this depth would make a read take over a minute)";
    for (std::size_t i = 0; i < kProfileLevels.size(); ++i) {
        const double q = f.quantileNs[i];
        if (!std::isfinite(q) || q <= 0.0 || q > kMaxLatencyNs)
            return where + ": latency " + std::string(kProfileLevelNames[i]) + " " + number(q / 1000.0) +
                   " us is not a time above 0 and up to a minute";
        if (i > 0 && q < f.quantileNs[i - 1])
            return where + ": latency " + std::string(kProfileLevelNames[i]) + " (" + number(q / 1000.0) +
                   " us) is below " + std::string(kProfileLevelNames[i - 1]) + " (" +
                   number(f.quantileNs[i - 1] / 1000.0) + " us); quantiles must not decrease";
    }
    if (!std::isfinite(f.meanNs) || f.meanNs < f.quantileNs.front() || f.meanNs > f.quantileNs.back())
        return where + ": mean latency " + number(f.meanNs / 1000.0) + " us is not between min and max";
    return {};
}

std::string checkSeries(const std::vector<LatencyFigures>& series, int parallelism, const std::string& what) {
    if (series.empty())
        return what + ": no figures";
    if (series.size() > 32)
        return what + ": " + std::to_string(series.size()) + " depths, at most 32 are read";
    for (std::size_t i = 0; i < series.size(); ++i) {
        const std::string where = what + " at depth " + std::to_string(series[i].depth);
        if (std::string problem = checkFigures(series[i], parallelism, where); !problem.empty())
            return problem;
        if (i > 0 && series[i].depth <= series[i - 1].depth)
            return where + ": depths must ascend (it follows depth " + std::to_string(series[i - 1].depth) +
                   ")";
    }
    return {};
}

} // namespace

double LatencyFigures::latencyAt(double u) const {
    u = std::clamp(u, 0.0, 1.0);
    const auto upper = std::upper_bound(kProfileLevels.begin() + 1, kProfileLevels.end() - 1, u);
    const std::size_t hi = static_cast<std::size_t>(upper - kProfileLevels.begin());
    const std::size_t lo = hi - 1;
    const double span = kProfileLevels[hi] - kProfileLevels[lo];
    const double w = (u - kProfileLevels[lo]) / span;
    return quantileNs[lo] + w * (quantileNs[hi] - quantileNs[lo]);
}

std::string checkDeviceProfile(const DeviceProfile& profile) {
    if (profile.parallelism < 1 || profile.parallelism > 4096)
        return "parallelism " + std::to_string(profile.parallelism) + " is outside 1..4096";
    if (std::string problem = checkSeries(profile.random, profile.parallelism, "8 kB random reads");
        !problem.empty())
        return problem;
    if (std::string problem = checkSeries(profile.sequential, profile.parallelism, "sequential reads");
        !problem.empty())
        return problem;
    if (profile.sequentialBytes < 2 * DeviceProfile::kRandomReadBytes ||
        profile.sequentialBytes > (1u << 20) ||
        profile.sequentialBytes % DeviceProfile::kRandomReadBytes != 0)
        return "sequential read size " + std::to_string(profile.sequentialBytes) +
               " bytes is not a whole number of 8 kB blocks from 16 kB to 1 MiB";
    return {};
}

int effectiveParallelism(const std::vector<LatencyFigures>& random) {
    double best = 0.0;
    for (const LatencyFigures& f : random)
        best = std::max(best, f.iops);
    for (const LatencyFigures& f : random)
        if (f.iops >= 0.9 * best)
            return f.depth;
    return 1;
}

void DeviceProfile::finish() {
    if (std::string problem = checkDeviceProfile(*this); !problem.empty())
        throw InputError(problem);
    // Whole 8 kB blocks (checkDeviceProfile): the division is exact.
    const double furtherBlocks = double(sequentialBytes) / double(kRandomReadBytes) - 1.0;
    m_extraBlockNs.clear();
    for (const LatencyFigures& f : sequential) {
        // By Little's law a read's mean time at the device is the reads under way over the rate; the
        // simulated device keeps at most `parallelism` under way, the rest wait their turn.
        const int served = std::min(f.depth, parallelism);
        const double serviceNs = double(served) / f.iops * 1e9;
        m_extraBlockNs.push_back(std::max(0.0, (serviceNs - randomMeanAt(served)) / furtherBlocks));
    }
}

double DeviceProfile::randomLatencyAt(int depth, double u) const {
    const auto [i, w] = bracket(random, std::min(depth, parallelism));
    const double here = random[i].latencyAt(u);
    // The same quantile at both depths, so the mixture is itself a distribution between them.
    return w == 0.0 ? here : here + w * (random[i + 1].latencyAt(u) - here);
}

double DeviceProfile::randomMeanAt(int depth) const {
    const auto [i, w] = bracket(random, std::min(depth, parallelism));
    return w == 0.0 ? random[i].meanNs : random[i].meanNs + w * (random[i + 1].meanNs - random[i].meanNs);
}

double DeviceProfile::extraBlockNs(int depth) const {
    if (m_extraBlockNs.empty())
        return 0.0;
    const auto [i, w] = bracket(sequential, std::min(depth, parallelism));
    return w == 0.0 ? m_extraBlockNs[i] : m_extraBlockNs[i] + w * (m_extraBlockNs[i + 1] - m_extraBlockNs[i]);
}

std::int64_t DeviceProfile::serviceNs(int depth, std::uint32_t nblocks, double u) const {
    double ns = randomLatencyAt(depth, u);
    if (nblocks > 1)
        ns += double(nblocks - 1) * extraBlockNs(depth);
    return std::max<std::int64_t>(1, std::llround(ns));
}

LatencyFigures latencyFigures(int depth, std::vector<double>& latenciesNs, double seconds) {
    LatencyFigures f;
    f.depth = depth;
    f.reads = latenciesNs.size();
    if (latenciesNs.empty())
        return f;
    std::sort(latenciesNs.begin(), latenciesNs.end());
    double sum = 0.0;
    for (const double ns : latenciesNs)
        sum += ns;
    // Clamped: rounding can put the sum's quotient a hair outside the range it must lie in.
    f.meanNs = std::clamp(sum / double(latenciesNs.size()), latenciesNs.front(), latenciesNs.back());
    const std::size_t last = latenciesNs.size() - 1;
    for (std::size_t i = 0; i < kProfileLevels.size(); ++i) {
        // Linear between the order statistics, as the sampling reads the quantiles back.
        const double at = kProfileLevels[i] * double(last);
        const std::size_t lo = static_cast<std::size_t>(at);
        const std::size_t hi = std::min(lo + 1, last);
        f.quantileNs[i] = latenciesNs[lo] + (at - double(lo)) * (latenciesNs[hi] - latenciesNs[lo]);
    }
    f.iops = seconds > 0.0 ? double(latenciesNs.size()) / seconds : 0.0;
    return f;
}

} // namespace la

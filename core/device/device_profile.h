// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace la {

// The latency quantiles a device profile records, as fractions: the minimum (0) and maximum (1)
// close the distribution, so a service time can be drawn from it (docs/simulated-device.md,
// "Calibrated profiles").
inline constexpr std::array<double, 12> kProfileLevels = {0.0,  0.01, 0.05, 0.10, 0.25,  0.50,
                                                          0.75, 0.90, 0.95, 0.99, 0.999, 1.0};
// Their names in a profile file and in messages: "min", "p1", ..., "p99.9", "max".
extern const std::array<std::string_view, kProfileLevels.size()> kProfileLevelNames;

// Reads of one size kept `depth` deep for a while: how many completed per second, and the latency of
// each (submission to completion), in nanoseconds.
struct LatencyFigures {
    int depth = 1;
    double iops = 0.0;
    double meanNs = 0.0;
    std::array<double, kProfileLevels.size()> quantileNs{};
    std::uint64_t reads = 0; // how many were measured (0: not recorded)

    // The latency at quantile `u` in [0, 1]: linear between the recorded quantiles.
    double latencyAt(double u) const;
};

// A device as `lookahead calibrate` measured it: 8 kB random reads at several queue depths, and large
// sequential reads. The simulated device draws each read's service time from it (serviceNs()).
struct DeviceProfile {
    static constexpr std::uint32_t kRandomReadBytes = 8192;

    std::vector<LatencyFigures> random;     // 8 kB random reads, ascending depth
    std::vector<LatencyFigures> sequential; // `sequentialBytes` reads in file order, ascending depth
    std::uint32_t sequentialBytes = 131072;
    // Requests the device serves at once: reads beyond it queue (derived by effectiveParallelism()).
    int parallelism = 1;

    // The service time of a read of `nblocks` 8 kB blocks started while `depth` reads (it included)
    // are under way, for `u` uniform in [0, 1): the 8 kB latency distribution at that depth (linear
    // between the measured depths, at most `parallelism`), plus what the further blocks add at that
    // depth (extraBlockNs).
    std::int64_t serviceNs(int depth, std::uint32_t nblocks, double u) const;
    // What each block after the first adds to a read started at `depth`: the sequential reads' mean
    // service time beyond an 8 kB read's, per further block (linear between their depths).
    double extraBlockNs(int depth) const;

    // Checks every figure (see checkDeviceProfile) and derives what serviceNs() needs. Throws
    // InputError with the problem; a caller adds the file's name.
    void finish();

private:
    double randomLatencyAt(int depth, double u) const;
    double randomMeanAt(int depth) const;
    std::vector<double> m_extraBlockNs; // at each sequential depth
};

// The first problem with `profile`'s figures, or "" if there is none: depths ascending within
// 1..1024, latencies above 0 and up to a minute, rates up to 1e9 a second and high enough that a read
// at that depth takes at most a minute (Little's law), quantiles that never decrease, a mean within
// the minimum and the maximum, a sequential read size of 16 kB..1 MiB in whole blocks, parallelism
// 1..4096. Each figure a read's service time is drawn from is then bounded, so a run's clock is too.
std::string checkDeviceProfile(const DeviceProfile& profile);

// The smallest measured depth whose IOPS reach 90 % of the best measured: beyond it, more requests
// only queue.
int effectiveParallelism(const std::vector<LatencyFigures>& random);

// Figures from raw latencies (nanoseconds, any order; sorted here) measured over `seconds`.
LatencyFigures latencyFigures(int depth, std::vector<double>& latenciesNs, double seconds);

} // namespace la

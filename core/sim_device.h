// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io_backend.h"
#include "splitmix64.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace la {

// Defaults calibrated to this project's disks (fio, O_DIRECT): one 8 kB read at depth 1 takes
// 66 us; four requests are served in parallel, which gives ~59k 8 kB IOPS and ~1.3 GB/s of
// 128 kB reads at depth 16. See docs/simulated-device.md.
struct SimDeviceConfig {
    std::int64_t baseLatencyNs = 44'000;
    std::int64_t perBlockNs = 22'000;
    int parallelism = 4;
    double jitter = 0.0; // each latency is scaled by a uniform factor in [1 - jitter, 1 + jitter]
    std::uint64_t seed = 1;
};

// Deterministic device on a virtual clock: nothing sleeps, so a 10 M-block run takes as long as
// the engine's own CPU work, and the same inputs always give the same trace.
class SimDevice final : public IoBackend {
public:
    explicit SimDevice(const SimDeviceConfig& config);

    std::int64_t now() override { return m_now; }
    void start(const ReadRequest& request) override;
    ReadOutcome wait(std::uint32_t ioId) override;
    void consume(std::int64_t ns) override { m_now += ns; }
    std::uint64_t deviceReads() const override { return m_reads; }
    std::uint64_t deviceBytes() const override { return m_bytes; }

private:
    struct Pending {
        std::uint32_t ioId = 0;
        std::int64_t submitted = 0;
        std::int64_t completes = 0; // 0 = synchronous, not yet performed
        std::uint32_t nblocks = 0;
    };
    // Small enough to be inlined into start() and wait() once the jitter's arithmetic is out of
    // line: it runs once per read.
    std::int64_t schedule(std::int64_t at, std::uint32_t nblocks);
    [[gnu::noinline]] std::int64_t jittered(std::int64_t service);
    void growPending();
    void takeEarliestChannel(std::int64_t freeAgain);

    SimDeviceConfig m_config;
    SplitMix64 m_rng;
    std::int64_t m_now = 0;
    // Times at which each of the device's parallel channels becomes free: a min-heap whose root is
    // replaced in one sift per read.
    std::vector<std::int64_t> m_channels;
    // Submission order, which is also the order reads are waited for: a ring that grows by doubling
    // (a deque costs more per read than the rest of the device).
    std::vector<Pending> m_pending;
    std::size_t m_pendingHead = 0, m_pendingCount = 0;
    std::uint64_t m_reads = 0;
    std::uint64_t m_bytes = 0;
};

} // namespace la

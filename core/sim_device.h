// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_size.h"
#include "io_backend.h"
#include "splitmix64.h"

#include <algorithm>
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
// the engine's own CPU work, and the same inputs always give the same trace. A read's start and wait
// are defined below, inline: the read stream calls them directly (final class), a few times a block.
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
    // Inline in start() and wait() once the jitter's arithmetic is out of line: it runs per read.
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

inline void SimDevice::takeEarliestChannel(std::int64_t freeAgain) {
    // A local pointer: the stores into the heap could alias the int64 members, the vector's size
    // among them, and the compiler would reload them on every step.
    std::int64_t* const channels = m_channels.data();
    const std::size_t n = m_channels.size();
    std::size_t hole = 0;
    for (;;) {
        std::size_t child = 2 * hole + 1;
        if (child >= n)
            break;
        if (child + 1 < n && channels[child + 1] < channels[child])
            ++child;
        if (channels[child] >= freeAgain)
            break;
        channels[hole] = channels[child];
        hole = child;
    }
    channels[hole] = freeAgain;
}

inline std::int64_t SimDevice::schedule(std::int64_t at, std::uint32_t nblocks) {
    const std::int64_t channelFree = m_channels.front();
    std::int64_t service = m_config.baseLatencyNs + m_config.perBlockNs * nblocks;
    if (m_config.jitter > 0.0)
        service = jittered(service);
    const std::int64_t done = std::max(at, channelFree) + std::max<std::int64_t>(service, 1);
    takeEarliestChannel(done);
    ++m_reads;
    m_bytes += std::uint64_t{nblocks} * kBlockSize;
    return done;
}

inline void SimDevice::start(const ReadRequest& request) {
    if (m_pendingCount == m_pending.size())
        growPending();
    const std::size_t tail = m_pendingHead + m_pendingCount;
    Pending& pending = m_pending[tail < m_pending.size() ? tail : tail - m_pending.size()];
    ++m_pendingCount;
    pending.ioId = request.ioId;
    pending.submitted = m_now;
    pending.nblocks = request.nblocks;
    // Advice makes the kernel start the read now; the consumer's pread later finds it under way.
    pending.completes = !request.synchronous || request.advice ? schedule(m_now, request.nblocks) : 0;
}

inline ReadOutcome SimDevice::wait(std::uint32_t ioId) {
    if (m_pendingCount == 0 || m_pending[m_pendingHead].ioId != ioId)
        return {};
    // Its slot is only reused by a later start().
    Pending& pending = m_pending[m_pendingHead];
    if (++m_pendingHead == m_pending.size())
        m_pendingHead = 0;
    --m_pendingCount;
    if (pending.completes == 0) {
        pending.submitted = m_now;
        pending.completes = schedule(m_now, pending.nblocks);
    }
    ReadOutcome outcome;
    outcome.latencyNs = pending.completes - pending.submitted;
    if (pending.completes > m_now) {
        outcome.blocked = true;
        outcome.waitNs = pending.completes - m_now;
        m_now = pending.completes;
    }
    return outcome;
}

} // namespace la

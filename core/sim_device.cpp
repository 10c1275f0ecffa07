// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim_device.h"

#include "block_size.h"

#include <algorithm>

namespace la {

SimDevice::SimDevice(const SimDeviceConfig& config)
    : m_config(config), m_rng(config.seed),
      m_channels(static_cast<std::size_t>(std::max(1, config.parallelism)), 0), m_pending(16) {}

void SimDevice::takeEarliestChannel(std::int64_t freeAgain) {
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

std::int64_t SimDevice::jittered(std::int64_t service) {
    return static_cast<std::int64_t>(static_cast<double>(service) *
                                     (1.0 + m_config.jitter * (2.0 * m_rng.uniform() - 1.0)));
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

void SimDevice::growPending() {
    std::vector<Pending> grown(m_pending.size() * 2);
    for (std::size_t i = 0; i < m_pendingCount; ++i)
        grown[i] = m_pending[(m_pendingHead + i) % m_pending.size()];
    m_pending = std::move(grown);
    m_pendingHead = 0;
}

void SimDevice::start(const ReadRequest& request) {
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

ReadOutcome SimDevice::wait(std::uint32_t ioId) {
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

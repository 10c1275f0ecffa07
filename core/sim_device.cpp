// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim_device.h"

#include "block_size.h"

#include <algorithm>

namespace la {

SimDevice::SimDevice(const SimDeviceConfig& config) : m_config(config), m_rng(config.seed) {
    for (int i = 0; i < std::max(1, config.parallelism); ++i)
        m_channels.push(0);
}

std::int64_t SimDevice::schedule(std::int64_t at, std::uint32_t nblocks) {
    const std::int64_t channelFree = m_channels.top();
    m_channels.pop();
    std::int64_t service = m_config.baseLatencyNs + m_config.perBlockNs * nblocks;
    if (m_config.jitter > 0.0)
        service = static_cast<std::int64_t>(static_cast<double>(service) *
                                            (1.0 + m_config.jitter * (2.0 * m_rng.uniform() - 1.0)));
    const std::int64_t done = std::max(at, channelFree) + std::max<std::int64_t>(service, 1);
    m_channels.push(done);
    ++m_reads;
    m_bytes += std::uint64_t{nblocks} * kBlockSize;
    return done;
}

void SimDevice::start(const ReadRequest& request) {
    Pending pending{request.ioId, m_now, 0, request.nblocks};
    // Advice makes the kernel start the read now; the consumer's pread later finds it under way.
    if (!request.synchronous || request.advice)
        pending.completes = schedule(m_now, request.nblocks);
    m_pending.push_back(pending);
}

ReadOutcome SimDevice::wait(std::uint32_t ioId) {
    if (m_pending.empty() || m_pending.front().ioId != ioId)
        return {};
    Pending pending = m_pending.front();
    m_pending.pop_front();
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

// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim_device.h"

#include "device_profile.h"

#include <algorithm>
#include <bit>

namespace la {

SimDevice::SimDevice(const SimDeviceConfig& config)
    : m_config(config), m_rng(config.seed),
      m_parallelism(static_cast<std::size_t>(std::max(1, config.parallelism))),
      m_channels(std::bit_ceil(m_parallelism), 0), m_channelMask(m_channels.size() - 1), m_pending(16),
      m_pendingMask(m_pending.size() - 1) {}

std::int64_t SimDevice::jittered(std::int64_t service) {
    return static_cast<std::int64_t>(static_cast<double>(service) *
                                     (1.0 + m_config.jitter * (2.0 * m_rng.uniform() - 1.0)));
}

std::int64_t SimDevice::profiled(std::int64_t at, std::uint32_t nblocks) {
    // The reads still under way at `at` are the channels busy past it: the ring's latest times.
    int depth = 1;
    for (std::size_t k = 0; k < m_parallelism; ++k) {
        if (m_channels[(m_channelHead + m_parallelism - 1 - k) & m_channelMask] <= at)
            break;
        ++depth;
    }
    return m_config.profile->serviceNs(depth, nblocks, m_rng.uniform());
}

void SimDevice::growPending() {
    std::vector<Pending> grown(m_pending.size() * 2);
    for (std::size_t i = 0; i < m_pendingCount; ++i)
        grown[i] = m_pending[(m_pendingHead + i) & m_pendingMask];
    m_pending = std::move(grown);
    m_pendingMask = m_pending.size() - 1;
    m_pendingHead = 0;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim_device.h"

#include "device_profile.h"

#include <algorithm>
#include <bit>
#include <string>

namespace la {

SimDevice::SimDevice(const SimDeviceConfig& config)
    : m_config(config), m_rng(config.seed),
      m_parallelism(static_cast<std::size_t>(std::max(1, config.parallelism))),
      m_channels(std::bit_ceil(m_parallelism), 0), m_channelMask(m_channels.size() - 1), m_pending(16),
      m_pendingMask(m_pending.size() - 1) {
    if (config.workers)
        m_workers = std::make_unique<SimWorkers>(*config.workers, kSimWorkerLaunchDelayNs,
                                                 [this](std::uint64_t job, std::int64_t at) {
                                                     Pending& pending = pendingJob(job);
                                                     pending.completes = schedule(at, pending.nblocks);
                                                     return pending.completes;
                                                 });
}

void SimDevice::clockOverrun() const {
    throw IoError("the simulated clock passed 2^60 ns (36 years) at " + std::to_string(m_reads) +
                  " reads: the device's latencies and the consumer's time per block (--device-profile, "
                  "--latency-us, --consumer-ns) make a run longer than any can be");
}

std::int64_t SimDevice::jittered(std::int64_t service) {
    return static_cast<std::int64_t>(static_cast<double>(service) *
                                     (1.0 + m_config.jitter * (2.0 * m_rng.uniform() - 1.0)));
}

void useDeviceProfile(SimDeviceConfig& device, std::shared_ptr<const DeviceProfile> profile) {
    if (profile)
        device.parallelism = profile->parallelism;
    device.profile = std::move(profile);
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

SimDevice::Pending& SimDevice::pendingJob(std::uint64_t job) {
    return m_pending[(m_pendingHead + (job - m_headJob)) & m_pendingMask];
}

std::int64_t SimDevice::startWithWorkers(const ReadRequest& request, std::uint64_t job) {
    // What the workers did before this instant comes first: the device serves in time order.
    m_workers->advance(m_now, false);
    if (request.synchronous)
        return request.advice ? schedule(m_now, request.nblocks) : 0;
    if (m_workers->submit(job, m_now))
        return kQueued;
    // The queue is full: the backend performs the read itself, there and then.
    m_now = schedule(m_now, request.nblocks);
    return m_now;
}

void SimDevice::startInBatch(const ReadRequest& request) {
    pushPending(request).completes = kBatched;
    ++m_batched;
}

void SimDevice::submitBatch() {
    if (m_batched == 0)
        return;
    m_now += m_config.submitNs; // one submission for the whole batch
    for (std::size_t i = 0; i < m_pendingCount; ++i) {
        Pending& pending = m_pending[(m_pendingHead + i) & m_pendingMask];
        if (pending.completes != kBatched)
            continue;
        pending.submitted = m_now;
        if (m_workers) {
            ReadRequest request;
            request.ioId = pending.ioId;
            request.nblocks = pending.nblocks;
            pending.completes = startWithWorkers(request, m_headJob + i);
        } else {
            pending.completes = schedule(m_now, pending.nblocks);
        }
    }
    m_batched = 0;
}

void SimDevice::awaitWorker(Pending& pending, std::uint64_t job) {
    if (pending.completes == kQueued)
        m_workers->advanceUntilTaken(job);
    else if (pending.completes == 0)
        m_workers->advance(m_now, false); // the consumer's own read joins the device in time order
}

ReadOutcome SimDevice::waitBehind(std::uint32_t ioId) {
    std::size_t i = 1;
    while (i < m_pendingCount && (m_pending[(m_pendingHead + i) & m_pendingMask].ioId != ioId ||
                                  m_pending[(m_pendingHead + i) & m_pendingMask].waitedOutOfTurn))
        ++i;
    if (i >= m_pendingCount)
        return {};
    Pending& pending = m_pending[(m_pendingHead + i) & m_pendingMask];
    if (pending.completes == kBatched)
        submitBatch();
    if (m_workers)
        awaitWorker(pending, m_headJob + i);
    const ReadOutcome outcome = finishWait(pending);
    pending.waitedOutOfTurn = true;
    return outcome;
}

IoWorkerCounts SimDevice::ioWorkers() {
    if (!m_workers)
        return {};
    m_workers->advance(m_now, true);
    return m_workers->counts();
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

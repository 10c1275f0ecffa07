// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_size.h"
#include "figure_limits.h"
#include "io_backend.h"
#include "io_worker_rules.h"
#include "sim_workers.h"
#include "splitmix64.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace la {

struct DeviceProfile;

// Defaults calibrated to this project's disks (fio, O_DIRECT): one 8 kB read at depth 1 takes
// 66 us; four requests are served in parallel, which gives ~59k 8 kB IOPS and ~1.3 GB/s of
// 128 kB reads at depth 16. See docs/simulated-device.md.
struct SimDeviceConfig {
    std::int64_t baseLatencyNs = 44'000;
    std::int64_t perBlockNs = 22'000;
    int parallelism = 4;
    double jitter = 0.0; // each latency is scaled by a uniform factor in [1 - jitter, 1 + jitter]
    std::uint64_t seed = 1;
    // The backend's CPU to hand one asynchronous read to the I/O method (an io_uring submission, a
    // worker's wake-up): the consumer's clock moves on by it at each such start (--submit-ns).
    std::int64_t submitNs = 0;
    // A measured device (--device-profile): each service time is drawn from its latency
    // distribution instead of the fixed one above, and jitter is not applied.
    std::shared_ptr<const DeviceProfile> profile;
    // io_method=worker: background reads are done by this pool of I/O workers, one read each at a
    // time. Unset: they go to the device when they are started (io_uring, or no pool modelled).
    std::optional<IoWorkerSettings> workers;
};

// Makes the simulated device `device` behave as `profile` says, its parallelism included (nullptr:
// back to its fixed service time).
void useDeviceProfile(SimDeviceConfig& device, std::shared_ptr<const DeviceProfile> profile);

// From the postmaster's fork to a new worker's first look at the queue (docs/simulated-device.md).
inline constexpr std::int64_t kSimWorkerLaunchDelayNs = 2'000'000;

// Deterministic device on a virtual clock: nothing sleeps, so a 10 M-block run takes as long as
// the engine's own CPU work, and the same inputs always give the same trace. A read's start and wait
// are defined below, inline: the read stream calls them directly (final class), a few times a block.
class SimDevice final : public IoBackend {
public:
    explicit SimDevice(const SimDeviceConfig& config);

    std::int64_t now() override { return m_now; }
    void start(const ReadRequest& request) override;
    ReadOutcome wait(std::uint32_t ioId) override;
    void consume(std::int64_t ns) override {
        if (m_batched > 0)
            submitBatch();
        m_now += ns;
        if (m_now > kMaxRunTimeNs) [[unlikely]]
            clockOverrun();
    }
    std::uint64_t deviceReads() const override { return m_reads; }
    std::uint64_t deviceBytes() const override { return m_bytes; }
    // READ_STREAM_USE_BATCHING, as the stream asks at its start: an asynchronous read reaches the I/O
    // method only when the backend next spends CPU on a buffer or waits for the read, so the reads
    // one look-ahead starts go in together, for one --submit-ns (pgaio's batch mode).
    void submitInBatches() { m_batching = true; }
    // The I/O worker pool's size so far (all zero without a pool), its events run up to now.
    IoWorkerCounts ioWorkers();

private:
    struct Pending {
        std::uint32_t ioId = 0;
        std::int64_t submitted = 0;
        std::int64_t completes = 0; // 0 = synchronous, not yet performed; kQueued = waits for a worker
        std::uint32_t nblocks = 0;
        // Waited for before an older read (the streams of one backend each wait for their own): the
        // slot stays, so that the job numbers of the reads after it still find theirs, until it is
        // the oldest.
        bool waitedOutOfTurn = false;
    };
    static constexpr std::int64_t kQueued = -1;
    static constexpr std::int64_t kBatched = -2; // started in a batch not yet submitted
    // Inline in start() and wait() once the jitter's arithmetic is out of line: it runs per read.
    std::int64_t schedule(std::int64_t at, std::uint32_t nblocks);
    [[gnu::noinline]] std::int64_t jittered(std::int64_t service);
    [[gnu::noinline]] std::int64_t profiled(std::int64_t at, std::uint32_t nblocks);
    void growPending();
    // The newest slot of the reads in submission order, for `request`.
    Pending& pushPending(const ReadRequest& request);
    // The clock passed kMaxRunTimeNs: throws IoError, before any time could overflow.
    [[noreturn, gnu::noinline]] void clockOverrun() const;
    void takeEarliestChannel(std::int64_t freeAgain);
    // The worker pool's part of start() and wait(), out of line: only worker runs take it.
    [[gnu::noinline]] std::int64_t startWithWorkers(const ReadRequest& request, std::uint64_t job);
    [[gnu::noinline]] void startInBatch(const ReadRequest& request);
    [[gnu::noinline]] void submitBatch();
    [[gnu::noinline]] void awaitWorker(Pending& pending, std::uint64_t job);
    [[gnu::noinline]] ReadOutcome waitBehind(std::uint32_t ioId);
    void popHead();
    ReadOutcome finishWait(Pending& pending);
    Pending& pendingJob(std::uint64_t job);

    SimDeviceConfig m_config;
    SplitMix64 m_rng;
    std::int64_t m_now = 0;
    // Times at which each of the device's parallel channels becomes free, ascending from
    // m_channelHead: a ring of `parallelism` times in a power-of-two array, kept sorted. A read takes
    // the earliest channel and frees it at what is most often the latest time (reads of one size
    // take equally long), so it usually goes in at the back at once, where a heap's sift took
    // unpredictable branches on every read.
    std::size_t m_parallelism;
    std::vector<std::int64_t> m_channels;
    std::size_t m_channelMask;
    std::size_t m_channelHead = 0;
    // Submission order, which is also the order reads are waited for: a ring that grows by doubling
    // (a deque costs more per read than the rest of the device), so its slots are a mask away.
    std::vector<Pending> m_pending;
    std::size_t m_pendingMask;
    std::size_t m_pendingHead = 0, m_pendingCount = 0;
    std::uint64_t m_headJob = 0; // the head's number among all reads started: a worker's job
    std::unique_ptr<SimWorkers> m_workers;
    std::uint64_t m_reads = 0;
    std::uint64_t m_bytes = 0;
    bool m_batching = false;
    std::size_t m_batched = 0; // reads waiting for their batch's submission
};

inline void SimDevice::takeEarliestChannel(std::int64_t freeAgain) {
    // Locals: the stores into the ring could alias the int64 members, and the compiler would reload
    // them on every step.
    std::int64_t* const channels = m_channels.data();
    const std::size_t mask = m_channelMask;
    const std::size_t head = (m_channelHead + 1) & mask;
    m_channelHead = head;
    // The earliest channel's slot is now the back of the ring; later times move up to make room.
    std::size_t slot = (head + m_parallelism - 1) & mask;
    for (std::size_t earlier = m_parallelism - 1; earlier > 0; --earlier) {
        const std::size_t before = (slot - 1) & mask;
        if (channels[before] <= freeAgain)
            break;
        channels[slot] = channels[before];
        slot = before;
    }
    channels[slot] = freeAgain;
}

inline std::int64_t SimDevice::schedule(std::int64_t at, std::uint32_t nblocks) {
    const std::int64_t channelFree = m_channels[m_channelHead];
    std::int64_t service = m_config.baseLatencyNs + m_config.perBlockNs * nblocks;
    if (m_config.profile)
        service = profiled(at, nblocks);
    else if (m_config.jitter > 0.0)
        service = jittered(service);
    // Each term is at most kMaxRunTimeNs (a service time is bounded by the options' and a device
    // profile's ranges): the sum cannot overflow, and past the limit the run stops.
    const std::int64_t done = std::max(at, channelFree) + std::max<std::int64_t>(service, 1);
    if (done > kMaxRunTimeNs) [[unlikely]]
        clockOverrun();
    takeEarliestChannel(done);
    ++m_reads;
    m_bytes += std::uint64_t{nblocks} * kBlockSize;
    return done;
}

inline SimDevice::Pending& SimDevice::pushPending(const ReadRequest& request) {
    if (m_pendingCount > m_pendingMask)
        growPending();
    Pending& pending = m_pending[(m_pendingHead + m_pendingCount) & m_pendingMask];
    ++m_pendingCount;
    pending.ioId = request.ioId;
    pending.waitedOutOfTurn = false;
    pending.nblocks = request.nblocks;
    return pending;
}

inline void SimDevice::start(const ReadRequest& request) {
    if (m_batching && !request.synchronous) {
        startInBatch(request);
        return;
    }
    if (!request.synchronous)
        m_now += m_config.submitNs;
    Pending& pending = pushPending(request);
    pending.submitted = m_now;
    if (m_workers)
        pending.completes = startWithWorkers(request, m_headJob + m_pendingCount - 1);
    // Advice makes the kernel start the read now; the consumer's pread later finds it under way.
    else
        pending.completes = !request.synchronous || request.advice ? schedule(m_now, request.nblocks) : 0;
}

inline ReadOutcome SimDevice::wait(std::uint32_t ioId) {
    if (m_pendingCount == 0 || m_pending[m_pendingHead].ioId != ioId) [[unlikely]]
        return waitBehind(ioId);
    if (m_pending[m_pendingHead].completes == kBatched) // waited for before its batch went in
        submitBatch();
    // Its slot is only reused by a later start().
    Pending& pending = m_pending[m_pendingHead];
    const std::uint64_t job = m_headJob;
    popHead();
    if (m_workers)
        awaitWorker(pending, job);
    return finishWait(pending);
}

inline void SimDevice::popHead() {
    m_pendingHead = (m_pendingHead + 1) & m_pendingMask;
    --m_pendingCount;
    ++m_headJob;
    // Reads another stream waited for out of turn leave the ring once they are its oldest.
    while (m_pendingCount > 0 && m_pending[m_pendingHead].waitedOutOfTurn)
        [[unlikely]] {
            m_pendingHead = (m_pendingHead + 1) & m_pendingMask;
            --m_pendingCount;
            ++m_headJob;
        }
}

inline ReadOutcome SimDevice::finishWait(Pending& pending) {
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

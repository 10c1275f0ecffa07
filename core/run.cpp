// SPDX-License-Identifier: GPL-3.0-or-later
#include "run.h"

#include "buffer_pool.h"
#include "distance_policy.h"
#include "input_error.h"
#include "prewarm.h"
#include "read_stream.h"
#include "reset_every_source.h"
#include "tracer.h"

#include <algorithm>

namespace la {

namespace {
constexpr std::uint64_t kDefaultPoolBlocks = 16384; // 128 MB, PostgreSQL's default shared_buffers
constexpr std::uint64_t kProgressEvery = 1 << 14;

void validate(const RunConfig& config) {
    const auto& s = config.stream;
    if (s.effectiveIoConcurrency < 0 || s.effectiveIoConcurrency > 1000)
        throw InputError("--eic " + std::to_string(s.effectiveIoConcurrency) + " is out of range (0..1000)");
    if (s.ioCombineLimit < 1 || s.ioCombineLimit > 128)
        throw InputError("--io-combine-limit " + std::to_string(s.ioCombineLimit) +
                         " is out of range (1..128 blocks)");
    if (s.maxPinnedOverride < 0 || s.maxPinnedOverride > 32767)
        throw InputError("--max-pinned " + std::to_string(s.maxPinnedOverride) +
                         " is out of range (1..32767)");
    if (config.consumerNs < 0 || config.consumerNs > 1'000'000'000)
        throw InputError("--consumer-ns " + std::to_string(config.consumerNs) + " is out of range (0..1e9)");
    if (config.device.baseLatencyNs < 0 || config.device.perBlockNs < 0)
        throw InputError("the simulated latency must not be negative");
    if (config.io != "sim")
        throw InputError("--io " + config.io + " is not yet available: use --io sim");
}
std::string defaultPrewarm(const RunConfig& config) {
    return config.blockList.empty() ? defaultPrewarmFor(config.dataset.name) : "none";
}
} // namespace

std::unique_ptr<BlockSource> openSource(const RunConfig& config) {
    validate(config);
    std::unique_ptr<BlockSource> source = config.blockList.empty()
                                              ? makeDataset(config.dataset)
                                              : loadBlockList(config.blockList, config.dataset.direction);
    if (source->length() == 0)
        throw InputError("the dataset has no blocks to scan");
    if (config.resetEvery > 0)
        source = std::make_unique<ResetEverySource>(std::move(source), config.resetEvery);
    return source;
}

RunSummary runScan(const RunConfig& config, const std::string& policyName, const RunCallbacks& callbacks) {
    std::unique_ptr<BlockSource> source = openSource(config);
    std::unique_ptr<DistancePolicy> policy = makePolicy(policyName);
    const PrewarmSpec prewarm =
        PrewarmSpec::parse(config.prewarm.empty() ? defaultPrewarm(config) : config.prewarm);

    const std::uint64_t relation = source->relationBlocks();
    const StreamLimits limits = computeLimits(config.stream, policy->rules());
    std::uint64_t poolBlocks = config.poolBlocks;
    if (poolBlocks == 0) {
        // A pattern's cache state only means something if it fits: grow the pool to the relation.
        const std::uint64_t needed = prewarm.count(relation) + std::uint64_t(limits.maxPinned) * 2 + 64;
        poolBlocks = needed > kDefaultPoolBlocks ? relation + 1 : kDefaultPoolBlocks;
    }
    if (poolBlocks < static_cast<std::uint64_t>(limits.maxPinned) + 2)
        throw InputError("--shared-buffers " + std::to_string(poolBlocks) +
                         " cannot hold max_pinned_buffers (" + std::to_string(limits.maxPinned) +
                         ") plus the consumer's buffer");
    BufferPool pool(poolBlocks, relation);
    prewarm.apply(pool, relation);

    SimDeviceConfig device = config.device;
    SimDevice io(device);
    Tracer tracer;
    SummaryBuilder summaryBuilder(config.collapseWindow);
    tracer.addSink(&summaryBuilder);
    for (EventSink* sink : callbacks.sinks)
        tracer.addSink(sink);

    RunSummary summary;
    summary.policy = policy->name();
    summary.maxPinned = limits.maxPinned;
    summary.ioCombineLimit = limits.ioCombineLimit;
    ReadStream stream(config.stream, *policy, pool, io, *source, tracer);
    const std::uint64_t total = source->length();
    std::uint64_t done = 0;
    for (;;) {
        std::uint32_t block = 0;
        if (!stream.nextBuffer(block)) {
            if (!stream.resetRequested())
                break;
            stream.reset();
            continue;
        }
        io.consume(config.consumerNs);
        if (++done % kProgressEvery == 0) {
            if (callbacks.progress)
                callbacks.progress(done, total);
            if (callbacks.cancel && callbacks.cancel->load(std::memory_order_relaxed)) {
                summary.cancelled = true;
                break;
            }
        }
    }
    tracer.flush();
    summaryBuilder.finish(summary);
    summary.deviceReads = io.deviceReads();
    summary.bytesRead = io.deviceBytes();
    if (callbacks.progress)
        callbacks.progress(done, total);
    return summary;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "run.h"

#include "buffer_pool.h"
#include "distance_policy.h"
#include "input_error.h"
#include "io/backend_factory.h"
#include "io/os_cache.h"
#include "io/scan_file.h"
#include "io/scan_target.h"
#include "memory_budget.h"
#include "prewarm.h"
#include "read_stream.h"
#include "reset_every_source.h"
#include "tracer.h"
#include "vector_source.h"

#include <algorithm>

namespace la {

namespace {
constexpr std::uint64_t kDefaultPoolBlocks = 16384; // 128 MB, PostgreSQL's default shared_buffers
constexpr std::uint64_t kProgressEvery = 1 << 14;
constexpr int kMaxIoWorkers = 64;

bool realIo(const RunConfig& config) {
    return config.io != "sim";
}

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
    if (config.io != "sim" && config.io != "sync" && config.io != "worker" && config.io != "uring")
        throw InputError("--io " + config.io + ": choose sim, sync, worker or uring");
    if (config.ioWorkers < 1 || config.ioWorkers > kMaxIoWorkers)
        throw InputError("--io-workers " + std::to_string(config.ioWorkers) + " is out of range (1.." +
                         std::to_string(kMaxIoWorkers) + ")");
}

// A real backend is PostgreSQL's io_method of the same name, so the stream's rules (PG18's
// advice, PG19's "waited") follow what really runs.
IoMethod ioMethodFor(const std::string& method) {
    if (method == "sync")
        return IoMethod::Sync;
    return method == "uring" ? IoMethod::IoUring : IoMethod::Worker;
}

std::string prewarmText(const RunConfig& config) {
    if (!config.prewarm.empty())
        return config.prewarm;
    return config.blockList.empty() && !config.blockSequence ? defaultPrewarmFor(config.dataset.name)
                                                             : "none";
}

// The real-I/O half of a run: the file, its page-cache state and the backend reading it.
struct RealIo {
    ScanTarget target;
    BackendChoice choice;
};

// Returns nothing if the run was cancelled while its dataset file was being written.
std::optional<RealIo> openRealIo(const RunConfig& config, const BlockSource& source,
                                 const StreamLimits& limits, const RunCallbacks& callbacks,
                                 RunSummary& summary) {
    std::optional<ScanTarget> target = prepareScanTarget(config, source, callbacks);
    if (!target)
        return std::nullopt;
    if (config.osCacheCold)
        evictFromOsCache(target->path);
    summary.osCacheResidentBefore = residentFraction(target->path);

    BackendRequest request;
    request.io = config.io;
    request.workers = config.ioWorkers;
    request.file.path = target->path;
    request.file.datasetId = target->datasetId;
    request.file.verify = target->ours;
    request.file.direct = config.directIo;
    request.file.maxIos = limits.maxIos;
    // Every block of a read in flight is pinned; the stream never pins more than this.
    request.file.maxInFlightBlocks = std::uint64_t(limits.maxPinned) + 2 * limits.ioCombineLimit + 4;
    request.file.maxReadBlocks = static_cast<std::uint32_t>(limits.ioCombineLimit);
    request.file.notice = callbacks.notice;
    return RealIo{*target, makeFileBackend(std::move(request))};
}

// Hands every block to the consumer; returns false if cancelled.
bool scan(ReadStream& stream, IoBackend& io, std::int64_t consumerNs, std::uint64_t total,
          const RunCallbacks& callbacks) {
    std::uint64_t done = 0;
    for (;;) {
        // Checked on every block: a real run must stop within milliseconds of being asked.
        if (callbacks.cancel && callbacks.cancel->load(std::memory_order_relaxed))
            return false;
        std::uint32_t block = 0;
        if (!stream.nextBuffer(block)) {
            if (!stream.resetRequested())
                break;
            stream.reset();
            continue;
        }
        io.consume(consumerNs);
        if (++done % kProgressEvery == 0 && callbacks.progress)
            callbacks.progress(done, total);
    }
    return true;
}
} // namespace

std::unique_ptr<BlockSource> openSource(const RunConfig& config) {
    validate(config);
    DatasetRequest request = config.dataset;
    std::uint64_t fileBlocks = 0;
    if (!config.file.empty()) {
        fileBlocks = inspectScanFile(config.file).blocks;
        if (request.blocks == 0)
            request.blocks = fileBlocks; // a pattern covers the user's file
    }
    std::unique_ptr<BlockSource> source;
    if (config.blockSequence)
        source = std::make_unique<VectorSource>(*config.blockSequence);
    else if (!config.blockList.empty())
        source = loadBlockList(config.blockList, config.dataset.direction);
    else
        source = makeDataset(request);
    if (source->length() == 0)
        throw InputError("the dataset has no blocks to scan");
    if (fileBlocks > 0 && source->relationBlocks() > fileBlocks)
        throw InputError((config.blockSequence       ? std::string("the traced block sequence reads")
                          : config.blockList.empty() ? "dataset '" + config.dataset.name + "' reads"
                                                     : "block list '" + config.blockList + "' reads") +
                         " block " + std::to_string(source->relationBlocks() - 1) + ", past the end of '" +
                         config.file + "' (" + std::to_string(fileBlocks) + " blocks)");
    if (config.resetEvery > 0)
        source = std::make_unique<ResetEverySource>(std::move(source), config.resetEvery);
    return source;
}

RunSummary runScan(const RunConfig& config, const std::string& policyName, const RunCallbacks& callbacks) {
    std::unique_ptr<BlockSource> source = openSource(config);
    std::unique_ptr<DistancePolicy> policy = makePolicy(policyName);
    const PrewarmSpec prewarm = PrewarmSpec::parse(prewarmText(config));

    StreamConfig streamConfig = config.stream;
    if (realIo(config)) {
        streamConfig.ioMethod = ioMethodFor(config.io);
        streamConfig.directIo = config.directIo;
    }
    const std::uint64_t relation = source->relationBlocks();
    const StreamLimits limits = computeLimits(streamConfig, policy->rules());
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
    requireMemory(BufferPool::bytesFor(poolBlocks, relation),
                  "a simulated shared buffers pool of " + std::to_string(std::min(poolBlocks, relation)) +
                      " buffers (for cache state '" + prewarm.text() + "' of a " + std::to_string(relation) +
                      "-block relation)",
                  "scan a smaller relation, or cap the pool with --shared-buffers N (blocks that do not fit "
                  "are evicted, as in PostgreSQL)");
    BufferPool pool(poolBlocks, relation);
    prewarm.apply(pool, relation);

    Tracer tracer;
    SummaryBuilder summaryBuilder(config.collapseWindow);
    tracer.addSink(&summaryBuilder);
    for (EventSink* sink : callbacks.sinks)
        tracer.addSink(sink);

    RunSummary summary;
    summary.policy = policy->name();
    summary.maxPinned = limits.maxPinned;
    summary.ioCombineLimit = limits.ioCombineLimit;
    std::unique_ptr<IoBackend> io;
    std::optional<RealIo> real;
    try {
        if (realIo(config)) {
            // What was asked for, until the backend says what really runs (a run that fails
            // before reading must not claim the simulated device).
            summary.ioMethodUsed = config.io;
            real = openRealIo(config, *source, limits, callbacks, summary);
            if (!real) {
                summary.cancelled = true;
                return summary;
            }
            // After a fallback the stream must follow the backend that really runs.
            streamConfig.ioMethod = real->choice.ioMethod;
            streamConfig.directIo = real->choice.backend->direct();
            summary.ioMethodUsed = real->choice.method;
        } else {
            io = std::make_unique<SimDevice>(config.device);
        }
        IoBackend& backend = real ? static_cast<IoBackend&>(*real->choice.backend) : *io;
        ReadStream stream(streamConfig, *policy, pool, backend, *source, tracer);
        summary.cancelled = !scan(stream, backend, config.consumerNs, source->length(), callbacks);
        if (real)
            summary.osCacheResidentAfter = residentFraction(real->target.path);
    } catch (const IoError& error) {
        // The run ends here; the trace up to the failure is kept.
        summary.error = error.what();
    }
    try {
        tracer.flush();
    } catch (const IoError& error) { // a sink's file (the trace CSV) could not be written
        if (summary.error.empty())
            summary.error = error.what();
    }
    summaryBuilder.finish(summary);
    const IoBackend* backend = real ? real->choice.backend.get() : io.get();
    if (backend) {
        summary.deviceReads = backend->deviceReads();
        summary.bytesRead = backend->deviceBytes();
    }
    if (real) {
        summary.pagesVerified = real->choice.backend->pagesVerified();
        summary.directIo = real->choice.backend->direct();
        summary.fallbackReason = real->choice.backend->fallbackReason();
    }
    if (callbacks.progress)
        callbacks.progress(summary.blocks, source->length());
    return summary;
}

} // namespace la

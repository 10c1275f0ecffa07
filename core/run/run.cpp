// SPDX-License-Identifier: GPL-3.0-or-later
#include "run.h"

#include "buffer_pool.h"
#include "buffer_strategy.h"
#include "datasets/plan_visits.h"
#include "input_error.h"
#include "io/backend_factory.h"
#include "io/os_cache.h"
#include "io/scan_file.h"
#include "io/worker_pool.h"
#include "memory_budget.h"
#include "message_text.h"
#include "observed/traced_cache.h"
#include "pg/pg_source.h"
#include "pg/relation_files.h"
#include "plan_run.h"
#include "prewarm.h"
#include "read_stream.h"
#include "registry.h"
#include "reread_source.h"
#include "reset_every_source.h"
#include "run_options.h"
#include "scan_loop.h"
#include "scan_target.h"
#include "stream_start.h"
#include "tracer.h"
#include "vector_source.h"

#include <algorithm>
#include <deque>

namespace la {

namespace {
constexpr std::uint64_t kDefaultPoolBlocks = 16384; // 128 MB, PostgreSQL's default shared_buffers
constexpr std::uint64_t kProgressEvery = 1 << 14;

bool realIo(const RunConfig& config) {
    return config.io != IoMode::Sim;
}

// The size of --file in blocks: a relation's segments together, or the file's.
std::uint64_t fileBlocksOf(const RunConfig& config) {
    return config.fileIsRelation ? pg::SegmentedRelation(config.file, "the traced relation").blocks()
                                 : inspectScanFile(config.file).blocks;
}

// The pool of I/O workers a worker run has: PG19's growing one or PG18's fixed io_workers.
IoWorkerSettings ioWorkerSettingsFor(const RunConfig& config, const Mechanics& mechanics) {
    if (mechanics.ioWorkers == IoWorkerPool::Fixed)
        return IoWorkerSettings::fixed(config.ioWorkers);
    constexpr std::int64_t kNsPerMs = 1'000'000;
    return {config.ioMinWorkers, config.ioMaxWorkers, config.ioWorkerLaunchIntervalMs * kNsPerMs,
            config.ioWorkerIdleTimeoutMs * kNsPerMs};
}

// The simulated device of a run: with io_method=worker its reads in the background go through the
// I/O workers.
SimDeviceConfig simDeviceFor(const RunConfig& config, const Mechanics& mechanics, const StreamConfig& stream,
                             const StreamLimits& limits) {
    SimDeviceConfig device = config.device;
    if (stream.ioMethod == IoMethod::Worker && !limits.synchronous)
        device.workers = ioWorkerSettingsFor(config, mechanics);
    return device;
}

void noteWorkers(const IoWorkerCounts& workers, RunSummary& summary) {
    summary.ioWorkersStart = workers.start;
    summary.ioWorkersEnd = workers.end;
    summary.ioWorkersPeak = workers.peak;
}

// The real-I/O half of a run: the file, its page-cache state and the backend reading it.
struct RealIo {
    ScanTarget target;
    BackendChoice choice;
};

// Returns nothing if the run was cancelled while its dataset file was being written.
std::optional<RealIo> openRealIo(const RunConfig& config, const Mechanics& mechanics,
                                 const BlockSource& source, const StreamLimits& limits,
                                 const RunCallbacks& callbacks, RunSummary& summary) {
    std::optional<ScanTarget> target =
        prepareScanTarget(config, source, callbacks, summary.pgIndex && summary.pgIndex->checksums);
    if (!target)
        return std::nullopt;
    if (config.osCacheCold)
        for (const std::string& segment :
             target->segments.empty() ? std::vector{target->path} : target->segments)
            evictFromOsCache(segment);
    summary.osCacheResidentBefore = residentFraction(target->path);

    BackendRequest request;
    request.io = ioMethodOf(config.io);
    request.workers = ioWorkerSettingsFor(config, mechanics);
    request.file.path = target->path;
    request.file.segments = target->segments;
    request.file.pageCheck = target->pageCheck;
    request.file.datasetId = target->datasetId;
    request.file.verify = target->ours;
    request.file.direct = config.directIo.value_or(true);
    request.file.maxIos = limits.maxIos;
    // Every block of a read in flight is pinned; the stream never pins more than this.
    request.file.maxInFlightBlocks = std::uint64_t(limits.maxPinned) + 2 * limits.ioCombineLimit + 4;
    request.file.maxReadBlocks = static_cast<std::uint32_t>(limits.ioCombineLimit);
    request.file.notice = callbacks.notice;
    return RealIo{*target, makeFileBackend(std::move(request))};
}

// Simulated shared buffers: --shared-buffers exactly, or the default grown (and said so) to hold
// the cache state and the pins.
std::uint64_t poolBlocksFor(const RunConfig& config, const PrewarmSpec& prewarm, std::uint64_t alsoResident,
                            std::uint64_t relation, const StreamLimits& limits, std::uint32_t ringBuffers,
                            const RunCallbacks& callbacks) {
    std::uint64_t poolBlocks = config.poolBlocks;
    if (poolBlocks == 0) {
        // A pattern's cache state only means something if it fits: grow the pool to the relation.
        const std::uint64_t cached = prewarm.count(relation) + alsoResident;
        const std::uint64_t needed = cached + std::uint64_t(limits.maxPinned) * 2 + 64;
        poolBlocks = kDefaultPoolBlocks;
        if (needed > kDefaultPoolBlocks) {
            poolBlocks = relation + 1;
            if (callbacks.notice)
                callbacks.notice("the model's shared buffers are grown from the default " +
                                 counted(kDefaultPoolBlocks) + " to " + counted(poolBlocks) +
                                 " blocks to hold the cache state '" + prewarm.text() + "' (about " +
                                 counted(cached) +
                                 " blocks); give --shared-buffers N for a pool of the server's size");
        }
    }
    if (poolBlocks < static_cast<std::uint64_t>(limits.maxPinned) + 2)
        throw InputError("--shared-buffers " + std::to_string(poolBlocks) +
                         " cannot hold max_pinned_buffers (" + std::to_string(limits.maxPinned) +
                         ") plus the consumer's buffer");
    requireMemory(BufferPool::bytesFor(poolBlocks, relation, ringBuffers),
                  "a simulated shared buffers pool of " + std::to_string(std::min(poolBlocks, relation)) +
                      " buffers (for cache state '" + prewarm.text() + "' of a " + std::to_string(relation) +
                      "-block relation)",
                  "scan a smaller relation, or cap the pool with --shared-buffers N (blocks that do not fit "
                  "are evicted, as in PostgreSQL)");
    return poolBlocks;
}

// Loads the cache state at the start into `pool`: the prewarm spec's, then the trace's. A state
// larger than the pool is refused: the pool is the server's, and PostgreSQL's could not hold it.
void loadCacheState(BufferPool& pool, const PrewarmSpec& prewarm, const TracedCache* traced,
                    std::uint64_t relation) {
    bool leftOut = false;
    prewarm.apply(pool, relation, &leftOut);
    if (traced && !leftOut)
        traced->apply(pool, &leftOut);
    if (leftOut)
        throw InputError("the cache state at the start ('" + prewarm.text() + "'" +
                         (traced ? std::string(" and the trace's") : std::string()) + ") does not fit in " +
                         counted(pool.capacity()) +
                         " shared buffers: give --shared-buffers at least as many blocks as it holds, or "
                         "a smaller cache state (--prewarm)");
}

// How the trace's cache state was derived, and where trace and visits disagree: in the summary and
// told to the user.
void noteTracedCache(const TracedCache& traced, std::uint64_t notEvicted, const RunCallbacks& callbacks,
                     RunSummary& summary) {
    summary.cacheFromTrace = traced.describe();
    summary.traceDisagreements = traced.unvisitedReads + traced.unmatchedReads;
    std::vector<std::string> lines = traced.disagreements();
    if (notEvicted > 0)
        lines.push_back(
            counted(notEvicted) +
            " re-read(s) the trace shows came while the model still held the block in its look-ahead, "
            "so the model hit where the server read");
    if (!callbacks.notice)
        return;
    callbacks.notice(summary.cacheFromTrace);
    for (const std::string& line : lines)
        callbacks.notice(line);
}

void noteDevice(const IoBackend& backend, RunSummary& summary) {
    summary.deviceReads = backend.deviceReads();
    summary.bytesRead = backend.deviceBytes();
}

void noteRealIo(const BackendChoice& choice, RunSummary& summary) {
    const FileBackend& backend = *choice.backend;
    noteDevice(backend, summary);
    if (choice.workers)
        noteWorkers(choice.workers->counts(), summary);
    summary.pagesVerified = backend.pagesVerified();
    summary.directIo = backend.direct();
    summary.fallbackReason = backend.fallbackReason();
}

// What a run's summary says before it reads: what runs, and with which limits.
RunSummary startingSummary(const RunConfig& config, const DistancePolicy& policy, const Mechanics& mechanics,
                           const StreamConfig& stream, const StreamLimits& limits,
                           const pg::IndexFacts& indexFacts) {
    RunSummary summary;
    summary.policy = policy.name();
    summary.mechanics = mechanics.name;
    summary.streamFlags = findRunOption("stream-flags")->get(config);
    summary.directIo = stream.directIo; // a real backend reports what it really did
    summary.maxPinned = limits.maxPinned;
    summary.ioCombineLimit = limits.ioCombineLimit;
    if (config.pg.active())
        summary.pgIndex = indexFacts;
    return summary;
}

// Opens the real-I/O half of a run and sets the stream to the backend that really runs; nothing if
// the run was cancelled while its dataset file was being written.
std::optional<RealIo> startRealIo(const RunConfig& config, const Mechanics& mechanics,
                                  const BlockSource& source, const StreamLimits& limits,
                                  const RunCallbacks& callbacks, StreamConfig& stream, RunSummary& summary) {
    // What was asked for, until the backend says what really runs (a run that fails
    // before reading must not claim the simulated device).
    summary.ioMethodUsed = ioModeName(config.io);
    std::optional<RealIo> real = openRealIo(config, mechanics, source, limits, callbacks, summary);
    if (!real)
        return real;
    // After a fallback the stream must follow the backend that really runs.
    stream.ioMethod = real->choice.ioMethod;
    stream.directIo = real->choice.backend->direct();
    summary.ioMethodUsed = ioMethodName(real->choice.ioMethod);
    return real;
}

// The file after the run: how much of it the page cache holds, and that nothing changed it meanwhile.
void checkRealIoAfter(const RealIo& real, RunSummary& summary) {
    summary.osCacheResidentAfter = residentFraction(real.target.path);
    if (const std::string changed = scanTargetChanges(real.target); !changed.empty())
        throw InputError(changed); // like a bad page: the input is at fault, not a read
}

// Hands the sinks the last events; a sink's file (the trace CSV) that cannot be written is the
// run's error unless it already has one.
void flushSinks(Tracer& tracer, RunSummary& summary) {
    try {
        tracer.flush();
    } catch (const IoError& error) {
        if (summary.error.empty())
            summary.error = error.what();
    }
}

// A block sequence in memory (an imported trace's reads) in a relation of `relationBlocks` (0: its
// highest block + 1).
std::unique_ptr<BlockSource> sequenceSource(const std::vector<std::uint32_t>& blocks,
                                            std::uint64_t relationBlocks) {
    if (relationBlocks > 0)
        if (const auto highest = std::max_element(blocks.begin(), blocks.end());
            highest != blocks.end() && *highest >= relationBlocks)
            throw InputError("the traced block sequence reads block " + std::to_string(*highest) +
                             ", past --relation-blocks " + std::to_string(relationBlocks));
    return std::make_unique<VectorSource>(blocks, relationBlocks);
}

// The early reads of --stream-start-after (or of the ring's start rule) go before everything else.
std::unique_ptr<BlockSource> startLate(const RunConfig& config, std::unique_ptr<BlockSource> source) {
    if (const std::uint64_t after = config.pg.streamStartsAfter(); after > 0)
        return std::make_unique<StreamStartSource>(std::move(source), after);
    return source;
}

// The relation's size as PostgreSQL sees it when it picks a strategy: a real relation's file, else
// the source's (a dataset's size, --relation-blocks, or a block list's highest block + 1).
std::uint64_t scannedRelationBlocks(const RunConfig& config, std::uint64_t sourceBlocks) {
    return config.file.empty() ? sourceBlocks : std::max(sourceBlocks, fileBlocksOf(config));
}

// What stays in the model's shared buffers after the run.
void noteCacheAfter(const BufferPool& pool, const RunCallbacks& callbacks, RunSummary& summary) {
    if (!callbacks.cacheAfter) {
        summary.residentAfter = pool.validCount();
        return;
    }
    std::vector<std::uint32_t> blocks = pool.validBlocks();
    summary.residentAfter = blocks.size();
    callbacks.cacheAfter(std::move(blocks));
}

// A PostgreSQL index scan's heap visits, reset and started late as the options say.
std::unique_ptr<BlockSource> openIndexScanSource(const RunConfig& config, pg::IndexFacts* indexFacts,
                                                 StreamPacer** pacer) {
    std::unique_ptr<BlockSource> source =
        pg::openPgSource(config.pg, config.dataset.direction, indexFacts, pacer);
    if (source->length() == 0)
        throw InputError("the index scan returns no rows: nothing to scan (check --pg-key-range)");
    if (config.resetEvery > 0)
        source = std::make_unique<ResetEverySource>(std::move(source), config.resetEvery);
    return startLate(config, std::move(source));
}

// A dataset, a block list or a traced block sequence, checked against --file's size.
std::unique_ptr<BlockSource> openBlockSource(const RunConfig& config) {
    DatasetRequest request = config.dataset;
    std::uint64_t fileBlocks = 0;
    if (!config.file.empty()) {
        fileBlocks = fileBlocksOf(config);
        if (request.blocks == 0)
            request.blocks = fileBlocks; // a pattern covers the user's file
    }
    std::unique_ptr<BlockSource> source;
    if (config.blockSequence)
        source = sequenceSource(*config.blockSequence, config.relationBlocks);
    else if (!config.blockList.empty())
        source = loadBlockList(config.blockList, config.dataset.direction, config.relationBlocks);
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
    if (config.resetEvery > 0 && dynamic_cast<const PlanSource*>(source.get()) != nullptr)
        throw InputError("--reset-every: block list '" + config.blockList +
                         "' holds the visits of several streams, each reset where its list says; leave "
                         "--reset-every out");
    if (config.resetEvery > 0)
        source = std::make_unique<ResetEverySource>(std::move(source), config.resetEvery);
    return startLate(config, std::move(source));
}

// A plan's streams run on the simulated device, in the main pool, on their own visits: what a run
// of one stream may add to them (a real file, a ring, a trace's cache) is refused, saying why.
void checkPlanRun(const RunConfig& config, const PlanSource& plan) {
    const std::string list = "block list '" + config.blockList + "' holds the visits of " +
                             std::to_string(plan.streams()) + " streams (docs/plan-runs.md): ";
    if (realIo(config))
        throw InputError(list + "they run on the simulated device only (leave --io out, or give --io sim)");
    if (config.strategy == StrategyChoice::BulkRead)
        throw InputError(list + "they read through the main pool; a BULKREAD ring per stream is not "
                                "modelled yet (leave --strategy out)");
    if (config.tracedReads || config.tracedCache)
        throw InputError(list + "a trace's cache state is one relation's; give the cache state with "
                                "--prewarm list:FILE in the list's block space");
}

// The block source of a configuration validateRunConfig() has checked.
std::unique_ptr<BlockSource> openCheckedSource(const RunConfig& config, pg::IndexFacts* indexFacts,
                                               StreamPacer** pacer) {
    if (pacer)
        *pacer = nullptr;
    return config.pg.active() ? openIndexScanSource(config, indexFacts, pacer) : openBlockSource(config);
}

// The what-if beside the patch itself is a comparison worth running (A what-if, B cf7035): the flag
// stays, and says it changes nothing there.
void noteBackwardCombining(const RunConfig& config, const Mechanics& mechanics,
                           const RunCallbacks& callbacks) {
    if (config.stream.backwardCombining && mechanics.backward != BackwardRule::OneBlockReads &&
        callbacks.notice)
        callbacks.notice(
            std::string("--backward-combining is a what-if for mechanics that read a descending run "
                        "block by block; ") +
            mechanics.name +
            " combines descending runs itself, as the patch does: the flag changes nothing in "
            "this run");
}

bool stopped(const RunCallbacks& callbacks) {
    return callbacks.cancel && callbacks.cancel->load();
}

// One run of runScan(), step by step: the source and its cache state, the stream's shape and its
// shared buffers, the device, the read, and the figures after it.
class Scan {
public:
    Scan(const RunConfig& config, const std::string& policyName, const RunCallbacks& callbacks)
        : m_config(config), m_callbacks(callbacks), m_policyName(policyName),
          m_source(openCheckedSource(config, &m_indexFacts, &m_pacer)), m_policy(makePolicy(policyName)),
          m_mechanics(mechanicsFor(policyName, config.mechanics)),
          m_prewarm(PrewarmSpec::parse(effectivePrewarm(config))), m_early(config.pg.streamStartsAfter()) {
        m_plan = dynamic_cast<const PlanSource*>(m_source.get());
        if (m_plan != nullptr)
            checkPlanRun(config, *m_plan);
        const std::size_t streams = m_plan != nullptr ? m_plan->streams() : 1;
        if (config.shownStream >= streams)
            throw InputError("--shown-stream " + std::to_string(config.shownStream) + ": the run has " +
                             (m_plan != nullptr
                                  ? std::to_string(streams) + " streams, 0.." + std::to_string(streams - 1)
                                  : std::string("one stream, 0 (only a block list of several "
                                                "streams has more, docs/plan-runs.md)")));
    }

    RunSummary run() {
        noteBackwardCombining(m_config, m_mechanics, m_callbacks);
        if (!takeTracedCache())
            return cancelledSummary();
        shapeStream();
        RunSummary summary =
            startingSummary(m_config, *m_policy, m_mechanics, m_stream, m_limits, m_indexFacts);
        summary.sharedBuffers = m_poolBlocks;
        summary.strategy = m_strategy.name();
        summary.ringBuffers = m_strategy.ringBuffers;
        try {
            if (!openDevice(summary)) {
                summary.cancelled = true;
                return summary;
            }
            summary.cancelled = !readThrough(summary);
            if (m_real)
                checkRealIoAfter(*m_real, summary);
        } catch (const IoError& error) {
            // The run ends here; the trace up to the failure is kept.
            summary.error = error.what();
        }
        finish(summary);
        return summary;
    }

private:
    RunSummary cancelledSummary() const {
        RunSummary summary;
        summary.policy = m_policyName;
        summary.cancelled = true;
        return summary;
    }

    // The cache state a trace shows (given, or derived from its reads); false if cancelled meanwhile.
    bool takeTracedCache() {
        m_traced = m_config.tracedCache;
        if (m_traced || !m_config.tracedReads)
            return true;
        m_traced = std::make_shared<const TracedCache>(
            deriveTracedCache(*m_config.tracedReads, *m_source, m_callbacks.cancel,
                              m_config.prewarm.empty() ? nullptr : &m_prewarm));
        return !stopped(m_callbacks);
    }

    // The strategy, the limits and the shared buffers (loaded with the cache state at the start).
    void shapeStream() {
        m_stream = streamConfigFor(m_config);
        const std::uint64_t relation = m_source->relationBlocks();
        m_strategy = chooseStrategy(m_config.strategy, m_mechanics.ring, m_stream,
                                    scannedRelationBlocks(m_config, relation));
        m_stream.ringBuffers = m_strategy.ringBuffers;
        m_limits = computeLimits(m_stream, m_mechanics);
        const auto ring = static_cast<std::uint32_t>(m_strategy.ringBuffers);
        m_poolBlocks = poolBlocksFor(m_config, m_prewarm, m_traced ? m_traced->cachedBlocks : 0, relation,
                                     m_limits, ring, m_callbacks);
        m_pool.emplace(m_poolBlocks, relation, BufferPool::Layout::Auto, ring);
        loadCacheState(*m_pool, m_prewarm, m_traced.get(), relation);
        if (m_traced) {
            auto wrapped =
                std::make_unique<RereadSource>(std::move(m_source), *m_pool, m_traced->rereadVisits);
            m_rereads = wrapped.get();
            m_source = std::move(wrapped);
        }
        for (EventSink* sink : m_callbacks.sinks)
            m_tracer.addSink(sink);
        if (m_config.pg.streamStartsAfter() > 0)
            m_tracer.addSink(&m_early);
    }

    // The real file's backend or the simulated device; false if cancelled while a dataset file was written.
    bool openDevice(RunSummary& summary) {
        if (realIo(m_config)) {
            m_real = startRealIo(m_config, m_mechanics, *m_source, m_limits, m_callbacks, m_stream, summary);
            return m_real.has_value();
        }
        if (!m_config.deviceProfile.empty() && !m_config.device.profile)
            throw InputError("device profile '" + m_config.deviceProfile + "' was not loaded before the run");
        m_sim = std::make_unique<SimDevice>(simDeviceFor(m_config, m_mechanics, m_stream, m_limits));
        return true;
    }

    // Reads the source to its end through the stream; false if cancelled.
    bool readThrough(RunSummary& summary) {
        if (m_plan != nullptr)
            return readPlanStreams(*m_plan,
                                   PlanBackend{m_stream, m_policyName, m_mechanics, *m_pool, *m_sim, m_tracer,
                                               m_config.consumerNs, m_config.collapseWindow},
                                   m_callbacks, m_streamSummaries);
        IoBackend& backend = m_real ? static_cast<IoBackend&>(*m_real->choice.backend) : *m_sim;
        ReadStream stream(m_stream, *m_policy, m_mechanics, *m_pool, backend, *m_source, m_tracer,
                          &m_summaryBuilder);
        stream.countExplainIo(summary.explainIo); // into the summary, so a failed run keeps them
        // PostgreSQL's EXPLAIN counts the stream alone: the reads before it go elsewhere.
        const std::uint64_t startAfter = m_config.pg.streamStartsAfter();
        ExplainIo beforeStream;
        if (startAfter > 0)
            stream.countExplainIo(beforeStream);
        if (m_pacer)
            m_pacer->controlStream([&stream] { stream.pause(); }, [&stream] { stream.resume(); });
        return consumeStream(stream, m_config.consumerNs, m_callbacks.cancel,
                             [&](const ReadStream&, std::uint64_t done) {
                                 if (done == startAfter)
                                     stream.countExplainIo(summary.explainIo);
                                 if (m_pacer)
                                     m_pacer->consumerTook(done);
                                 if (done % kProgressEvery == 0 && m_callbacks.progress)
                                     m_callbacks.progress(done, m_source->length());
                             });
    }

    // The figures after the read: the sinks' last events, the device's and the cache's.
    void finish(RunSummary& summary) {
        flushSinks(m_tracer, summary);
        if (m_plan != nullptr)
            finishPlanFigures(summary);
        else
            m_summaryBuilder.finish(summary);
        // The resets that kept the early reads apart are not the stream's.
        summary.readsBeforeStream = m_early.reads;
        summary.waitsBeforeStream = m_early.waits;
        summary.resets -= std::min(summary.resets, m_early.resets);
        if (m_real) {
            noteRealIo(m_real->choice, summary);
        } else if (m_sim) {
            noteDevice(*m_sim, summary);
            noteWorkers(m_sim->ioWorkers(), summary);
        }
        if (m_traced)
            noteTracedCache(*m_traced, m_rereads->notEvicted(), m_callbacks, summary);
        noteCacheAfter(*m_pool, m_callbacks, summary);
        if (m_callbacks.progress)
            m_callbacks.progress(summary.blocks, m_source->length());
    }

    // A plan run's figures are the drawn stream's, as its views are (an A/B or a sweep compares that
    // stream), but for the run time, the whole run's; each stream's own are in `streams`.
    void finishPlanFigures(RunSummary& summary) {
        summary.streams.assign(m_streamSummaries.size(), RunSummary{});
        std::int64_t end = 0;
        for (std::size_t i = 0; i < m_streamSummaries.size(); ++i) {
            RunSummary& stream = summary.streams[i];
            stream.policy = m_policyName;
            stream.mechanics = m_mechanics.name;
            m_streamSummaries[i].finish(stream);
            end = std::max(end, stream.runtimeNs);
        }
        if (m_config.shownStream < m_streamSummaries.size())
            m_streamSummaries[m_config.shownStream].finish(summary);
        summary.runtimeNs = end;
    }

    const RunConfig& m_config;
    const RunCallbacks& m_callbacks;
    const std::string& m_policyName;
    pg::IndexFacts m_indexFacts;
    StreamPacer* m_pacer = nullptr;
    std::optional<BufferPool> m_pool; // before the source: a re-read source holds on to it
    std::unique_ptr<BlockSource> m_source;
    const PlanSource* m_plan = nullptr; // m_source, if it holds several streams
    std::unique_ptr<DistancePolicy> m_policy;
    const Mechanics& m_mechanics;
    const PrewarmSpec m_prewarm;
    std::shared_ptr<const TracedCache> m_traced;
    StreamConfig m_stream;
    BufferStrategy m_strategy;
    StreamLimits m_limits;
    std::uint64_t m_poolBlocks = 0;
    RereadSource* m_rereads = nullptr;
    Tracer m_tracer;
    SummaryBuilder m_summaryBuilder{m_config.collapseWindow};
    std::deque<SummaryBuilder> m_streamSummaries; // a plan run's, one per stream
    EarlyReadCounter m_early;
    std::unique_ptr<SimDevice> m_sim;
    std::optional<RealIo> m_real;
};

} // namespace

std::string effectivePrewarm(const RunConfig& config) {
    if (!config.prewarm.empty())
        return config.prewarm;
    return config.blockList.empty() && !config.blockSequence && !config.pg.active() && !config.tracedReads
               ? defaultPrewarmFor(config.dataset.name)
               : "none";
}

StreamConfig streamConfigFor(const RunConfig& config) {
    StreamConfig stream = config.stream;
    stream.directIo = config.directIo.value_or(realIo(config));
    if (config.poolBlocks > 0)
        stream.sharedBuffers = config.poolBlocks;
    if (realIo(config))
        stream.ioMethod = ioMethodOf(config.io);
    return stream;
}

std::unique_ptr<BlockSource> openSource(const RunConfig& config, pg::IndexFacts* indexFacts,
                                        StreamPacer** pacer) {
    validateRunConfig(config);
    return openCheckedSource(config, indexFacts, pacer);
}

RunSummary runScan(const RunConfig& config, const std::string& policyName, const RunCallbacks& callbacks) {
    validateRunConfig(config);
    return Scan(config, policyName, callbacks).run();
}

} // namespace la

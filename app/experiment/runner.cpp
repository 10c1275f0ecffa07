// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/runner.h"

#include "prewarm.h"

#include "experiment/device_profile_json.h"
#include "experiment/explain_output.h"
#include "experiment/reconciliation.h"
#include "experiment/run_storage.h"
#include "experiment/session_io.h"
#include "files/output_file.h"
#include "input_error.h"
#include "io/event_csv.h"
#include "io_backend.h"
#include "observed/observed_events.h"
#include "observed/observed_summary.h"
#include "observed/traced_cache.h"
#include "repeat_stats.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace la {

namespace {

// Where the observed reads sit among the visits its model replays (docs/trace-import.md §6), so
// that both runs share the position axis; none when the model replays the trace's own reads. The
// cache state derived for it is the model's too: the visits are walked (a btree read) once.
std::optional<std::vector<std::uint32_t>> visitPositions(const ObservedTrace& trace, Experiment& experiment,
                                                         const RunCallbacks& callbacks) {
    if (experiment.runs.size() != 2 || !experiment.runs[1].config.tracedReads)
        return std::nullopt;
    RunConfig& model = experiment.runs[1].config;
    if (!model.tracedCache) {
        std::unique_ptr<BlockSource> visits = openSource(model);
        std::optional<PrewarmSpec> snapshot;
        if (!model.prewarm.empty())
            snapshot = PrewarmSpec::parse(model.prewarm);
        auto cache = std::make_shared<const TracedCache>(deriveTracedCache(
            *model.tracedReads, *visits, callbacks.cancel, snapshot ? &*snapshot : nullptr));
        if (cache->visits == 0)
            return std::nullopt;
        model.tracedCache = std::move(cache);
    }
    return readVisitPositions(trace, *model.tracedCache);
}

// The run's summary: a model run's from the engine, an observed run's from its imported reads,
// replayed as events so that every sink sees it as it would see a run.
RunSummary runVariant(const RunVariant& variant, Experiment& experiment, const RunCallbacks& callbacks) {
    if (!variant.observed)
        return runScan(variant.config, variant.policy, callbacks);
    RunSummary summary = summarizeObservedRun(*variant.observed);
    try {
        if (!variant.explainPath.empty())
            takeServerExplain(QString::fromStdString(variant.explainPath), summary);
        const std::optional<std::vector<std::uint32_t>> positions =
            visitPositions(*variant.observed, experiment, callbacks);
        emitObservedEvents(*variant.observed, callbacks.sinks, positions ? &*positions : nullptr);
    } catch (const IoError& error) { // a sink's file could not be written, as in runScan()
        summary.error = error.what();
    } catch (const InputError& error) { // the EXPLAIN file
        summary.error = error.what();
    }
    return summary;
}

// A notice of run `run`: kept with the experiment's notes, and passed on to the front end.
void say(Experiment& experiment, const ExperimentCallbacks& callbacks, int run, const std::string& text) {
    experiment.notes.push_back(text);
    if (callbacks.notice)
        callbacks.notice(run, text);
}

// The engine's progress, notices and cancellation for run `run`, passed on to the front end's.
void reportTo(RunCallbacks& engine, Experiment& experiment, const ExperimentCallbacks& callbacks, int run) {
    if (callbacks.progress)
        engine.progress = [&callbacks, run](std::uint64_t done, std::uint64_t total) {
            callbacks.progress(run, done, total);
        };
    engine.preparing = callbacks.preparing;
    engine.notice = [&experiment, &callbacks, run](const std::string& text) {
        say(experiment, callbacks, run, text);
    };
    engine.cancel = callbacks.cancel;
}

// Commits the files written during the runs; each failure is kept, naming its file.
void commitOutputs(std::unique_ptr<EventCsvWriter>& csv, std::unique_ptr<SessionWriter>& session,
                   const Experiment& experiment, ExperimentResult& result) {
    try {
        if (csv)
            csv->commit();
    } catch (const IoError& error) {
        result.writeErrors.emplace_back(error.what());
    }
    try {
        if (session) {
            finishSession(*session, experiment);
            result.sessionWritten = true;
        }
    } catch (const IoError& error) {
        result.writeErrors.emplace_back(error.what());
    }
}

// How many times `variant` goes: its repeat with real I/O; once on the simulated device, whose runs
// are deterministic (its jitter is seeded), and for an imported trace, which is a replay.
int repeatsOf(const RunVariant& variant) {
    return timesRealIo(variant) ? std::max(1, variant.config.repeat) : 1;
}

// The repeats in the order they go: A B, then B A, then A B ... (A B B A A B B A), so that a drift
// of the machine (its caches, another load) falls on both runs alike.
std::vector<std::pair<int, int>> repeatOrder(const Experiment& experiment, int firstRun) {
    std::vector<int> runs;
    int rounds = 0;
    for (int run = firstRun; run < static_cast<int>(experiment.runs.size()); ++run) {
        runs.push_back(run);
        rounds = std::max(rounds, repeatsOf(experiment.runs[static_cast<std::size_t>(run)]));
    }
    std::vector<std::pair<int, int>> order;
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const int run = round % 2 == 0 ? runs[i] : runs[runs.size() - 1 - i];
            if (round < repeatsOf(experiment.runs[static_cast<std::size_t>(run)]))
                order.emplace_back(run, round);
        }
    }
    return order;
}

// Hands each batch to several sinks (a spool replayed into the outputs and the front end's).
class FanOut final : public EventSink {
public:
    explicit FanOut(std::vector<EventSink*> sinks) : m_sinks(std::move(sinks)) {}
    void onEvents(std::span<const Event> batch) override {
        for (EventSink* sink : m_sinks)
            sink->onEvents(batch);
    }

private:
    std::vector<EventSink*> m_sinks;
};

// --cache-after: the run whose shared buffers it keeps, and what they held after each of its repeats.
struct CacheAfter {
    std::unique_ptr<OutputFile> file;
    int run = -1;
    std::vector<std::vector<std::uint32_t>> repeats;
    std::optional<std::size_t> kept; // the repeat (the median) whose blocks are written
};

// The files an experiment writes as it goes, open until the end.
struct OpenOutputs {
    std::unique_ptr<SessionWriter> session;
    std::unique_ptr<EventCsvWriter> csv;
    CacheAfter cacheAfter;
};

// The first modelled run from `firstRun`, or -1.
int firstModelledRun(const Experiment& experiment, int firstRun) {
    for (int run = firstRun; run < static_cast<int>(experiment.runs.size()); ++run)
        if (!experiment.runs[static_cast<std::size_t>(run)].observed)
            return run;
    return -1;
}

// Asks the engine for run `run`'s shared buffers after it, if --cache-after keeps them.
void keepCacheAfter(CacheAfter& cacheAfter, int run, RunCallbacks& engine) {
    if (!cacheAfter.file || run != cacheAfter.run)
        return;
    cacheAfter.repeats.emplace_back();
    engine.cacheAfter = [&blocks = cacheAfter.repeats.back()](std::vector<std::uint32_t> after) {
        blocks = std::move(after);
    };
}

// Writes the kept blocks and puts the file in place; nothing is written if the run did not finish.
void commitCacheAfter(CacheAfter& cacheAfter, ExperimentResult& result) {
    if (!cacheAfter.file || !cacheAfter.kept)
        return;
    try {
        std::string text;
        for (const std::uint32_t block : cacheAfter.repeats[*cacheAfter.kept]) {
            text += std::to_string(block);
            text += '\n';
            if (text.size() >= 1 << 16) {
                cacheAfter.file->write(text);
                text.clear();
            }
        }
        cacheAfter.file->write(text);
        cacheAfter.file->commit();
    } catch (const IoError& error) {
        result.writeErrors.emplace_back(error.what());
    }
}

// Run `run`'s outputs start: the sinks that keep its events are added to `sinks`.
void beginOutputs(OpenOutputs& open, const RunVariant& variant, std::vector<EventSink*>& sinks) {
    if (open.csv) {
        open.csv->setRunLabel(variant.label);
        sinks.push_back(open.csv.get());
    }
    if (open.session) {
        beginSessionRun(*open.session, variant);
        sinks.push_back(open.session.get());
    }
}

bool stops(const RunSummary& summary) {
    return summary.cancelled || !summary.error.empty();
}

// The observed run a model's figures are reconciled with: its summary as it ran, or, for a model run
// beside a baseline saved before (`firstRun` 1), its trace's and EXPLAIN's again.
std::optional<RunSummary> observedRunOf(const Experiment& experiment, const ExperimentResult& result,
                                        int firstRun) {
    if (experiment.runs.empty() || !experiment.runs.front().observed)
        return std::nullopt;
    if (firstRun == 0)
        return result.summaries.empty() ? std::nullopt : std::optional(result.summaries.front());
    RunSummary observed = summarizeObservedRun(*experiment.runs.front().observed);
    try {
        if (!experiment.runs.front().explainPath.empty())
            takeServerExplain(QString::fromStdString(experiment.runs.front().explainPath), observed);
    } catch (const InputError&) {
        // The EXPLAIN file is gone since: the trace alone is compared.
    }
    return observed;
}

// Keeps the model's missed blocks while it runs, where its figures are reconciled with a trace.
std::unique_ptr<MissedBlocks> missedBlocksFor(const Experiment& experiment, int run,
                                              std::vector<EventSink*>& sinks) {
    if (!reconciles(experiment, static_cast<std::size_t>(run)) || !experiment.runs.front().observed)
        return nullptr;
    auto missed = std::make_unique<MissedBlocks>();
    sinks.push_back(missed.get());
    return missed;
}

// The model run's reconciliation (docs/trace-import.md §9), into its summary before anyone sees it.
void reconcile(const Experiment& experiment, int run, const ExperimentResult& result, int firstRun,
               const MissedBlocks* missed, RunSummary& summary) {
    if (!reconciles(experiment, static_cast<std::size_t>(run)))
        return;
    const std::optional<RunSummary> observed = observedRunOf(experiment, result, firstRun);
    summary.reconciliation =
        reconcileRun(experiment, static_cast<std::size_t>(run), observed ? &*observed : nullptr, summary,
                     missed ? missed->blocks() : nullptr);
}

// Run `run` starts being handed on: the front end's sinks and the outputs' are added to `sinks`, and
// the sink keeping the model's missed blocks where they are reconciled with a trace.
std::unique_ptr<MissedBlocks> beginHandOn(const Experiment& experiment, const ExperimentCallbacks& callbacks,
                                          int run, OpenOutputs& open, std::vector<EventSink*>& sinks) {
    if (callbacks.runStarted)
        callbacks.runStarted(run, sinks);
    beginOutputs(open, experiment.runs[static_cast<std::size_t>(run)], sinks);
    return missedBlocksFor(experiment, run, sinks);
}

// Run `run` is handed on, its events given: reconciled, ended in the session, kept in the result and
// passed to the front end. False when it stops the experiment.
bool handOn(const Experiment& experiment, const ExperimentCallbacks& callbacks, int run, int firstRun,
            OpenOutputs& open, const MissedBlocks* missed, RunSummary summary,
            std::shared_ptr<EventSpool> spool, ExperimentResult& result) {
    reconcile(experiment, run, result, firstRun, missed, summary);
    if (open.session)
        endSessionRun(*open.session, summary);
    result.summaries.push_back(summary);
    if (callbacks.runFinished)
        callbacks.runFinished(run, summary, std::move(spool));
    if (stops(summary))
        result.stopped = true;
    return !stops(summary);
}

// One run's repeats so far, each with the spool of its events.
struct Repeats {
    std::vector<RunSummary> summaries;
    std::vector<std::shared_ptr<EventSpool>> spools;
};

// A repeated run's median repeat handed on as the run, its spool replayed into the outputs
// (docs/repeats.md). False when it stops the experiment.
bool handOnMedian(Experiment& experiment, const ExperimentOutputs& outputs,
                  const ExperimentCallbacks& callbacks, int run, int firstRun, bool stopped,
                  OpenOutputs& open, Repeats& repeats, ExperimentResult& result) {
    const std::size_t median = medianRepeat(repeats.summaries);
    RunSummary summary = repeats.summaries[median];
    if (run == open.cacheAfter.run && !stopped)
        open.cacheAfter.kept = median;
    if (!stopped && repeats.summaries.size() > 1)
        summary.repeats = repeats.summaries;
    std::shared_ptr<EventSpool> spool = repeats.spools[median];
    std::vector<EventSink*> sinks;
    const std::unique_ptr<MissedBlocks> missed = beginHandOn(experiment, callbacks, run, open, sinks);
    if (!spool->broken().empty())
        say(experiment, callbacks, run, "the median repeat's events could not be kept: " + spool->broken());
    FanOut fanOut(std::move(sinks));
    try {
        if (!spool->replay(fanOut, callbacks.cancel, {}))
            summary.cancelled = true;
    } catch (const IoError& error) {
        summary.error = error.what();
    }
    // A spool that could not keep every event has not every miss either.
    const MissedBlocks* allMissed = spool->broken().empty() ? missed.get() : nullptr;
    return handOn(experiment, callbacks, run, firstRun, open, allMissed, std::move(summary),
                  outputs.spoolEvents ? std::move(spool) : nullptr, result);
}

// The one loop over the runs, in the order of their repeats. A run that goes once is handed on as it
// runs, its events to every sink as they come. When any run repeats, each repeat's events go to the
// front end's sinks and a spool of their own; once all have run, each run's median repeat is handed
// on. A run or repeat that is cancelled or fails stops the experiment: the runs before the one it
// belongs to are handed on with the repeats they completed, that run as it stopped.
void runAll(Experiment& experiment, const ExperimentOutputs& outputs, const ExperimentCallbacks& callbacks,
            int firstRun, OpenOutputs& open, ExperimentResult& result) {
    const std::vector<std::pair<int, int>> order = repeatOrder(experiment, firstRun);
    const bool repeated =
        std::any_of(order.begin(), order.end(), [](const auto& step) { return step.second > 0; });
    std::vector<Repeats> runs(experiment.runs.size());
    int stoppedRun = -1;
    for (const auto& [run, repeat] : order) {
        const RunVariant& variant = experiment.runs[static_cast<std::size_t>(run)];
        if (callbacks.cancel && callbacks.cancel->load()) {
            result.stopped = true;
            break;
        }
        RunCallbacks engine;
        std::unique_ptr<MissedBlocks> missed;
        if (repeated && callbacks.repeatStarted)
            callbacks.repeatStarted(run, repeat, repeatsOf(variant), engine.sinks);
        else if (!repeated)
            missed = beginHandOn(experiment, callbacks, run, open, engine.sinks);
        std::shared_ptr<EventSpool> spool =
            repeated || outputs.spoolEvents ? spoolBesideDatasets(variant.config) : nullptr;
        if (spool)
            engine.sinks.push_back(spool.get());
        reportTo(engine, experiment, callbacks, run);
        keepCacheAfter(open.cacheAfter, run, engine);
        RunSummary summary = runVariant(variant, experiment, engine);
        if (spool)
            spool->finish();
        if (!repeated) {
            if (run == open.cacheAfter.run && !stops(summary))
                open.cacheAfter.kept = 0;
            if (!handOn(experiment, callbacks, run, firstRun, open, missed.get(), std::move(summary),
                        std::move(spool), result))
                break;
            continue;
        }
        if (callbacks.repeatFinished)
            callbacks.repeatFinished(run, repeat, summary);
        Repeats& repeats = runs[static_cast<std::size_t>(run)];
        if (stops(summary)) {
            result.stopped = true;
            stoppedRun = run;
            repeats = {{summary}, {spool}};
            break;
        }
        repeats.summaries.push_back(std::move(summary));
        repeats.spools.push_back(std::move(spool));
    }
    for (int run = firstRun; repeated && run < static_cast<int>(experiment.runs.size()); ++run) {
        Repeats& repeats = runs[static_cast<std::size_t>(run)];
        if (repeats.summaries.empty() || !handOnMedian(experiment, outputs, callbacks, run, firstRun,
                                                       run == stoppedRun, open, repeats, result))
            break;
    }
}

} // namespace

ExperimentResult runExperiment(Experiment& experiment, const ExperimentOutputs& outputs,
                               const ExperimentCallbacks& callbacks, int firstRun) {
    loadDeviceProfiles(experiment);
    ExperimentResult result;
    OpenOutputs open;
    if (!outputs.session.empty())
        open.session = std::make_unique<SessionWriter>(outputs.session);
    if (callbacks.ready)
        callbacks.ready();
    if (!outputs.eventCsv.empty() && static_cast<std::size_t>(firstRun) < experiment.runs.size())
        open.csv = std::make_unique<EventCsvWriter>(
            outputs.eventCsv, experiment.runs[static_cast<std::size_t>(firstRun)].label);
    if (!outputs.cacheAfter.empty()) {
        open.cacheAfter.run = firstModelledRun(experiment, firstRun);
        if (open.cacheAfter.run < 0)
            throw InputError("--cache-after keeps a modelled run's shared buffers, and this experiment "
                             "has none to run");
        open.cacheAfter.file = std::make_unique<OutputFile>(outputs.cacheAfter, "cache after the run");
    }
    runAll(experiment, outputs, callbacks, firstRun, open, result);
    if (outputs.provenance)
        experiment.provenance = experimentProvenance(experiment, result.summaries, outputs.commandLine);
    commitOutputs(open.csv, open.session, experiment, result);
    commitCacheAfter(open.cacheAfter, result);
    return result;
}

} // namespace la

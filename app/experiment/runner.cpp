// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/runner.h"

#include "prewarm.h"

#include "event_csv.h"
#include "experiment/device_profile_json.h"
#include "experiment/explain_output.h"
#include "experiment/run_storage.h"
#include "experiment/session_io.h"
#include "input_error.h"
#include "io_backend.h"
#include "observed/observed_events.h"
#include "observed/observed_summary.h"
#include "traced_cache.h"

#include <optional>

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
    RunSummary summary = summarizeObserved(*variant.observed).run;
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

// The engine's progress, notices and cancellation for run `run`, passed on to the front end's.
void reportTo(RunCallbacks& engine, const ExperimentCallbacks& callbacks, int run) {
    if (callbacks.progress)
        engine.progress = [&callbacks, run](std::uint64_t done, std::uint64_t total) {
            callbacks.progress(run, done, total);
        };
    engine.preparing = callbacks.preparing;
    if (callbacks.notice)
        engine.notice = [&callbacks, run](const std::string& text) { callbacks.notice(run, text); };
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

} // namespace

ExperimentResult runExperiment(Experiment& experiment, const ExperimentOutputs& outputs,
                               const ExperimentCallbacks& callbacks, int firstRun) {
    loadDeviceProfiles(experiment);
    ExperimentResult result;
    std::unique_ptr<SessionWriter> session;
    std::unique_ptr<EventCsvWriter> csv;
    if (!outputs.session.empty())
        session = std::make_unique<SessionWriter>(outputs.session);
    if (callbacks.ready)
        callbacks.ready();
    if (!outputs.eventCsv.empty() && static_cast<std::size_t>(firstRun) < experiment.runs.size())
        csv = std::make_unique<EventCsvWriter>(outputs.eventCsv,
                                               experiment.runs[static_cast<std::size_t>(firstRun)].label);
    for (int run = firstRun; run < static_cast<int>(experiment.runs.size()); ++run) {
        const RunVariant& variant = experiment.runs[static_cast<std::size_t>(run)];
        if (callbacks.cancel && callbacks.cancel->load()) {
            result.stopped = true;
            break;
        }
        RunCallbacks engine;
        if (callbacks.runStarted)
            callbacks.runStarted(run, engine.sinks);
        std::shared_ptr<EventSpool> spool =
            outputs.spoolEvents ? spoolBesideDatasets(variant.config) : nullptr;
        if (spool)
            engine.sinks.push_back(spool.get());
        if (csv) {
            csv->setRunLabel(variant.label);
            engine.sinks.push_back(csv.get());
        }
        if (session) {
            session->beginRun(sessionRunOf(variant));
            if (variant.observed)
                session->addObserved(*variant.observed);
            engine.sinks.push_back(session.get());
        }
        reportTo(engine, callbacks, run);
        RunSummary summary = runVariant(variant, experiment, engine);
        if (spool)
            spool->finish();
        if (session)
            endSessionRun(*session, summary);
        result.summaries.push_back(summary);
        if (callbacks.runFinished)
            callbacks.runFinished(run, summary, std::move(spool));
        if (summary.cancelled || !summary.error.empty()) {
            result.stopped = true;
            break;
        }
    }
    if (outputs.provenance)
        experiment.provenance = experimentProvenance(experiment, result.summaries, outputs.commandLine);
    commitOutputs(csv, session, experiment, result);
    return result;
}

} // namespace la

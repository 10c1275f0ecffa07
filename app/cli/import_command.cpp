// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/import_command.h"

#include "cli/command_outputs.h"
#include "cli/summary_text.h"
#include "experiment/experiment.h"
#include "experiment/explain_output.h"
#include "experiment/import_summary.h"
#include "experiment/runner.h"
#include "experiment/signal_cancel.h"
#include "experiment/summary_json.h"
#include "experiment/verdict.h"
#include "input_error.h"
#include "io/event_csv.h"
#include "io/output_file.h"
#include "io/output_guard.h"
#include "message_text.h"
#include "observed/observed_events.h"
#include "observed/trace_importer.h"
#include "run_inputs.h"

#include <QJsonDocument>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace la {

namespace {

void note(const std::string& message) {
    std::fprintf(stderr, "lookahead: note: %s\n", message.c_str());
}

// Reports the import's progress on stderr, every 10%.
class ProgressPrinter {
public:
    void operator()(std::uint64_t done, std::uint64_t total) {
        const int tenths = total > 0 ? static_cast<int>(done * 10 / total) : 10;
        if (tenths == m_tenths)
            return;
        m_tenths = tenths;
        std::fprintf(stderr, "lookahead: importing trace: %d%%\n", tenths * 10);
    }

private:
    int m_tenths = -1;
};

} // namespace

std::optional<ObservedTrace> importTraceFor(const CliOptions& options) {
    std::vector<NamedPath> inputs = runInputs(options.run);
    inputs.push_back({"--import-trace", options.importTrace});
    if (!options.explain.empty())
        inputs.push_back({"--explain", options.explain});
    checkOutputsApart(inputs, outputsOf(options));
    TraceImportCallbacks callbacks;
    if (::isatty(STDERR_FILENO)) // scripts get errors alone on stderr
        callbacks.progress = ProgressPrinter();
    callbacks.cancel = &SignalCancel::requested();
    return importTrace({options.importTrace, traceFormatNamed(options.traceFormat), options.traceRelation,
                        options.traceBackend},
                       callbacks);
}

std::optional<Experiment> commandLineExperiment(const CliOptions& options) {
    if (options.importTrace.empty()) {
        Experiment experiment = makeExperiment(options.run, options.comparison);
        experiment.recorded = options.recorded;
        return experiment;
    }
    std::optional<ObservedTrace> trace = importTraceFor(options);
    if (!trace)
        return std::nullopt;
    std::vector<std::string> notes = importNotes(*trace, !options.traceRelation.empty());
    for (const std::string& line : notes)
        note(line);
    // The scan's visits, where the command line gives them: a PostgreSQL index scan, a block list, a
    // pattern.
    Experiment experiment = makeImportExperiment(
        std::make_shared<const ObservedTrace>(std::move(*trace)), options.importTrace, options.run,
        visitsGiven(options) ? ModelVisits::FromConfig : ModelVisits::TraceReads);
    experiment.runs[0].explainPath = options.explain;
    experiment.recorded = options.recorded;
    // The model may read the traced relation's own files: no output may land on them either.
    checkOutputsApart(runInputs(experiment.runs[1].config), outputsOf(options));
    for (std::string& line : importModelNotes(experiment)) {
        note(line);
        notes.push_back(std::move(line));
    }
    experiment.notes = std::move(notes);
    return experiment;
}

int runImportHeadless(const CliOptions& options) {
    std::optional<OutputFile> json;
    Experiment experiment;
    try {
        std::optional<Experiment> imported = commandLineExperiment(options);
        if (!imported)
            return SignalCancel::exitCode();
        experiment = std::move(*imported);
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    // PostgreSQL's own figures for the scan, read before anything runs so that a bad file stops it.
    std::optional<ExplainOutput> plan;
    const ExplainNode* serverScan = nullptr;
    try {
        if (!options.explain.empty()) {
            const QString path = QString::fromStdString(options.explain);
            plan = readExplainOutput(path);
            serverScan = &observedScanOf(*plan, path);
        }
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    ObservedSummary observed = summarizeObserved(*experiment.runs.front().observed);
    if (serverScan != nullptr)
        takeServerWaits(*serverScan, observed.run);
    ExperimentOutputs outputs;
    outputs.eventCsv = options.traceCsv;
    outputs.cacheAfter = options.cacheAfter;
    outputs.commandLine = options.commandLine;
    ExperimentCallbacks callbacks;
    callbacks.ready = [&] {
        if (!options.summaryJson.empty())
            json.emplace(options.summaryJson, "summary JSON");
    };
    callbacks.notice = [](int, const std::string& message) { note(message); };
    callbacks.cancel = &SignalCancel::requested();
    callbacks.runFinished = [&](int run, const RunSummary& summary, std::shared_ptr<EventSpool>) {
        std::fputs(run == 0 ? describeObserved(observed).c_str()
                            : describeRun(experiment.runs[1].label, summary).c_str(),
                   stdout);
        if (run == 0 && serverScan != nullptr)
            std::fputs(qPrintable(describeServerExplain(serverExplainJson(*plan, *serverScan))), stdout);
    };
    ExperimentResult result;
    try {
        result = runExperiment(experiment, outputs, callbacks);
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    int exitCode = reportWriteErrors(result.writeErrors);
    if (result.summaries.size() == 2 && !result.summaries[1].error.empty())
        exitCode = 1;
    std::fputs(describeBesideServer(experiment, result.summaries).c_str(), stdout);
    std::fputs(verdictLines(experiment, result.summaries).c_str(), stdout);
    // Built only when asked for: it lists every process, which a trace may have by the million.
    if (json) {
        const RunVariant& model = experiment.runs[1];
        ObservedModel modelled{model.policy, model.config, std::nullopt};
        if (result.summaries.size() == 2)
            modelled.summary = result.summaries[1];
        QJsonObject doc =
            importSummaryDocument(options.importTrace, observed, modelled,
                                  serverScan ? serverExplainJson(*plan, *serverScan) : QJsonObject());
        if (!experiment.recorded.isEmpty())
            doc[QStringLiteral("recorded")] = experiment.recorded;
        if (writeJson(json, QJsonDocument(doc).toJson()) != 0)
            exitCode = 1;
    }
    return SignalCancel::exitCode() != 0 ? SignalCancel::exitCode() : exitCode;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/import_command.h"

#include "cli/summary_text.h"
#include "experiment/command_experiment.h"
#include "experiment/command_outputs.h"
#include "experiment/experiment.h"
#include "experiment/explain_output.h"
#include "experiment/import_summary.h"
#include "experiment/plan_nodes.h"
#include "experiment/runner.h"
#include "experiment/signal_cancel.h"
#include "experiment/summary_json.h"
#include "experiment/verdict.h"
#include "input_error.h"
#include "message_text.h"
#include "observed/observed_events.h"

#include <QJsonDocument>

#include <cstdio>

namespace la {

namespace {

void note(const std::string& message) {
    std::fprintf(stderr, "lookahead: note: %s\n", message.c_str());
}

} // namespace

int runImportHeadless(const CliOptions& options) {
    const CommandOutputs& commandOutputs = options.outputs;
    Experiment experiment;
    // PostgreSQL's own figures for the scan, read before anything runs so that a bad file stops it.
    std::optional<ExplainOutput> plan;
    const ExplainNode* serverScan = nullptr;
    try {
        std::optional<Experiment> imported = requestedExperiment(experimentRequest(options), commandOutputs);
        if (!imported)
            return SignalCancel::exitCode();
        experiment = std::move(*imported);
        if (!options.explain.empty()) {
            const QString path = QString::fromStdString(options.explain);
            plan = readExplainOutput(path);
            serverScan = &observedScanOf(*plan, path);
        }
    } catch (const InputError& error) {
        return reportBadInput(error);
    }
    ObservedSummary observed = summarizeObserved(*experiment.runs.front().observed);
    if (serverScan != nullptr)
        takeServerWaits(*serverScan, observed.run);
    const ExperimentOutputs outputs = commandOutputs.experiment(options.commandLine);
    ExperimentCallbacks callbacks;
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
        return reportBadInput(error);
    }
    int exitCode = reportWriteErrors(result.writeErrors);
    // The observed run's error (its EXPLAIN, the model's visits it is placed among) stops the runs.
    if (!result.summaries.empty() && !result.summaries[0].error.empty())
        std::fprintf(stderr, "lookahead: %s\n", result.summaries[0].error.c_str());
    for (const RunSummary& summary : result.summaries)
        if (!summary.error.empty())
            exitCode = 1;
    std::fputs(describeBesideServer(experiment, result.summaries).c_str(), stdout);
    std::fputs(verdictLines(runsVerdict(experiment, result.summaries)).c_str(), stdout);
    // Built only when asked for: it lists every process, which a trace may have by the million.
    if (!commandOutputs.summaryJson.empty()) {
        const RunVariant& model = experiment.runs[1];
        ObservedModel modelled{model.policy, model.config, std::nullopt};
        if (result.summaries.size() == 2)
            modelled.summary = result.summaries[1];
        QJsonObject doc =
            importSummaryDocument(options.importTrace, observed, modelled,
                                  serverScan ? serverExplainJson(*plan, *serverScan) : QJsonObject());
        if (!experiment.recorded.isEmpty())
            doc[QStringLiteral("recorded")] = experiment.recorded;
        addPlanNodes(doc, experiment.recorded);
        if (writeJson(commandOutputs.summaryJson, QJsonDocument(doc).toJson()) != 0)
            exitCode = 1;
    }
    return SignalCancel::exitCodeOr(exitCode);
}

} // namespace la

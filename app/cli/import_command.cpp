// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/import_command.h"

#include "cli/summary_text.h"
#include "experiment/command_experiment.h"
#include "experiment/command_outputs.h"
#include "experiment/experiment.h"
#include "experiment/explain_output.h"
#include "experiment/import_summary.h"
#include "experiment/runner.h"
#include "experiment/signal_cancel.h"
#include "experiment/summary_json.h"
#include "experiment/verdict.h"
#include "input_error.h"
#include "observed/observed_summary.h"

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
    try {
        std::optional<Experiment> imported = requestedExperiment(experimentRequest(options), commandOutputs);
        if (!imported)
            return SignalCancel::exitCode();
        experiment = std::move(*imported);
    } catch (const InputError& error) {
        return reportBadInput(error);
    }
    const ExperimentOutputs outputs = commandOutputs.experiment(options.commandLine);
    ExperimentCallbacks callbacks;
    callbacks.notice = [](int, const std::string& message) { note(message); };
    callbacks.cancel = &SignalCancel::requested();
    callbacks.runFinished = [&](int run, const RunSummary& summary, std::shared_ptr<EventSpool>) {
        if (run != 0) {
            std::fputs(describeRun(experiment.runs[1].label, summary).c_str(), stdout);
            return;
        }
        // The observed run as it ran: with PostgreSQL's own figures for the scan, where given.
        std::fputs(describeObserved(observedSummaryOf(*experiment.runs.front().observed, summary)).c_str(),
                   stdout);
        if (!summary.serverExplain.empty())
            std::fputs(
                qPrintable(describeServerExplain(
                    QJsonDocument::fromJson(QByteArray::fromStdString(summary.serverExplain)).object())),
                stdout);
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
    if (!commandOutputs.summaryJson.empty() &&
        writeJson(commandOutputs.summaryJson, summaryJson(experiment, result.summaries)) != 0)
        exitCode = 1;
    return SignalCancel::exitCodeOr(exitCode);
}

} // namespace la

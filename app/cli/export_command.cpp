// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/export_command.h"
#include "experiment/verdict.h"

#include "cli/summary_text.h"
#include "dashboard.h"
#include "experiment/command_outputs.h"
#include "experiment/runner.h"
#include "experiment/session_io.h"
#include "experiment/session_traces.h"
#include "experiment/signal_cancel.h"
#include "experiment/summary_json.h"
#include "experiment/view_traces.h"
#include "input_error.h"
#include "message_text.h"
#include "render/plot_file.h"
#include "render/png_export.h"

#include <QJsonDocument>

#include <cstdio>

namespace la {

namespace {

// Each run's summary, as the headless run prints it.
void printRuns(const Experiment& experiment, const std::vector<RunSummary>& runs) {
    for (std::size_t i = 0; i < runs.size() && i < experiment.runs.size(); ++i)
        std::fputs(describeRun(experiment.runs[i].label, runs[i]).c_str(), stdout);
}

// The plot files asked for, each in its option's format.
std::vector<std::pair<PlotFormat, std::string>> plotOutputs(const CommandOutputs& outputs) {
    std::vector<std::pair<PlotFormat, std::string>> plots;
    for (const auto& [format, file] :
         {std::pair{PlotFormat::Png, &outputs.exportPng}, std::pair{PlotFormat::Svg, &outputs.exportSvg},
          std::pair{PlotFormat::Pdf, &outputs.exportPdf}})
        if (!file->empty())
            plots.emplace_back(format, *file);
    return plots;
}

// The summary JSON and the plot files of finished runs, drawn from their traces. Returns the exit code.
int writeDrawn(const CommandOutputs& outputs, QSize size, const Experiment& experiment,
               const std::vector<RunSummary>& runs, const std::vector<const RunTrace*>& traces) {
    Dashboard dashboard;
    dashboard.setRuns(traces);
    const RunsVerdict said = runsVerdict(experiment, runs);
    dashboard.setVerdict(said.verdict);
    dashboard.setReconciliation(said.reconciliation.disagrees ? said.reconciliation.text : QString());
    std::fputs(describeBesideServer(experiment, runs).c_str(), stdout);
    std::fputs(verdictLines(said).c_str(), stdout);
    dashboard.setLive(false);
    dashboard.summariesChanged();
    const QJsonDocument summary(summaryDocument(experiment, runs));
    int exitCode = writeJson(outputs.summaryJson, summary.toJson());
    PlotExport what;
    what.size = size;
    what.caption = runCaption(experiment);
    what.summary = summary.toJson(QJsonDocument::Compact);
    for (const auto& [format, file] : plotOutputs(outputs)) {
        what.format = format;
        const QString path = QString::fromStdString(file);
        if (const QString error = writePlotFile(path, dashboard, what); !error.isEmpty()) {
            std::fprintf(stderr, "lookahead: %s\n", qPrintable(error));
            exitCode = 1;
            continue;
        }
        std::printf("wrote %s (%s, %dx%d)\n", printable(file).c_str(), qPrintable(plotFormatName(format)),
                    what.size.width(), what.size.height());
    }
    return SignalCancel::exitCodeOr(exitCode);
}

// `--open FILE --export-png OUT`: the saved runs drawn as the live export drew them.
int exportOpened(const CliOptions& options, QSize size) {
    const CommandOutputs& outputs = options.outputs;
    std::vector<std::unique_ptr<RunTrace>> traces;
    OpenedSession session;
    try {
        session = openSessionForCommand(options.open, outputs, options.node);
        traces = sessionTraces(session);
    } catch (const InputError& error) {
        return reportBadInput(error);
    }
    std::vector<const RunTrace*> shown;
    for (const auto& trace : traces)
        shown.push_back(trace.get());
    printRuns(session.experiment, session.summaries);
    return writeDrawn(outputs, size, session.experiment, session.summaries, shown);
}

// The experiment `request` asks for, run into the views' traces and drawn.
int exportRun(const ExperimentRequest& request, const CommandOutputs& outputs, QSize size,
              const std::string& commandLine) {
    ExperimentCallbacks callbacks;
    callbacks.notice = [](int, const std::string& text) {
        std::fprintf(stderr, "lookahead: %s\n", text.c_str());
    };
    callbacks.cancel = &SignalCancel::requested();
    std::optional<Experiment> experiment;
    std::unique_ptr<ViewTraces> views;
    ExperimentResult result;
    try {
        experiment = requestedExperiment(request, outputs);
        if (!experiment)
            return SignalCancel::exitCode();
        views = std::make_unique<ViewTraces>(*experiment);
        views->follow(callbacks, [](const std::string& problem) {
            std::fprintf(stderr, "lookahead: %s\n", printable(problem).c_str());
        });
        result = runExperiment(*experiment, outputs.experiment(commandLine), callbacks);
    } catch (const InputError& error) {
        return reportBadInput(error);
    }
    int exitCode = reportWriteErrors(result.writeErrors);
    printRuns(*experiment, result.summaries);
    for (const RunSummary& run : result.summaries)
        if (!run.error.empty())
            exitCode = 1;
    if (result.sessionWritten)
        std::printf("wrote %s (session)\n", printable(outputs.save).c_str());
    const int drawn = writeDrawn(outputs, size, *experiment, result.summaries, views->traces());
    return drawn != 0 ? drawn : exitCode;
}

} // namespace

int runHeadlessExport(const CliOptions& options) {
    const QSize size(options.pngWidth, options.pngHeight);
    if (!options.open.empty())
        return exportOpened(options, size);
    return exportRun(experimentRequest(options), options.outputs, size, options.commandLine);
}

} // namespace la

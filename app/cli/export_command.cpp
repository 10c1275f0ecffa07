// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/export_command.h"
#include "experiment/verdict.h"

#include "cli/command_outputs.h"
#include "cli/import_command.h"
#include "cli/open_command.h"
#include "cli/summary_text.h"
#include "dashboard.h"
#include "experiment/explain_output.h"
#include "experiment/run_storage.h"
#include "experiment/runner.h"
#include "experiment/session_io.h"
#include "experiment/session_traces.h"
#include "experiment/signal_cancel.h"
#include "experiment/summary_json.h"
#include "experiment/view_traces.h"
#include "input_error.h"
#include "io/output_file.h"
#include "message_text.h"
#include "render/plot_file.h"
#include "render/png_export.h"
#include "run_inputs.h"

#include <cstdio>

namespace la {

namespace {

void printRun(const RunSummary& s) {
    std::printf("policy %s: %s blocks, %s reads, %s waits (%s), run time %s, %zu collapse(s)%s\n",
                printable(s.policy).c_str(), counted(s.blocks).c_str(), counted(s.ios).c_str(),
                counted(s.waits).c_str(), timeText(static_cast<double>(s.waitNs)).c_str(),
                timeText(static_cast<double>(s.runtimeNs)).c_str(), s.collapseIntervals.size(),
                s.error.empty() ? "" : (" ERROR: " + printable(s.error)).c_str());
}

// The plot files the command line asks for, each in its option's format.
std::vector<std::pair<PlotFormat, std::string>> plotOutputs(const CliOptions& options) {
    std::vector<std::pair<PlotFormat, std::string>> outputs;
    for (const auto& [format, file] :
         {std::pair{PlotFormat::Png, &options.exportPng}, std::pair{PlotFormat::Svg, &options.exportSvg},
          std::pair{PlotFormat::Pdf, &options.exportPdf}})
        if (!file->empty())
            outputs.emplace_back(format, *file);
    return outputs;
}

// The summary JSON and the plot files of runs on `dashboard`, finished. Returns the exit code.
int writeDrawn(const CliOptions& options, const Experiment& experiment, const std::vector<RunSummary>& runs,
               Dashboard& dashboard) {
    int exitCode = 0;
    dashboard.setVerdict(variantVerdict(experiment, runs));
    dashboard.setReconciliation(reconciliationDisagrees(runs) ? reconciliationLine(runs) : QString());
    std::fputs(describeBesideServer(experiment, runs).c_str(), stdout);
    std::fputs(verdictLines(experiment, runs).c_str(), stdout);
    dashboard.setLive(false);
    dashboard.summariesChanged();
    if (!options.summaryJson.empty()) {
        const QString error = writeSummaryJson(QString::fromStdString(options.summaryJson), experiment, runs);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "lookahead: %s\n", qPrintable(error));
            exitCode = 1;
        }
    }
    PlotExport what;
    what.size = QSize(options.pngWidth, options.pngHeight);
    what.caption = runCaption(experiment.runs);
    what.experiment = experiment;
    what.runs = runs;
    for (const auto& [format, file] : plotOutputs(options)) {
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
    return SignalCancel::exitCode() != 0 ? SignalCancel::exitCode() : exitCode;
}

// Bad output paths are bad input: refused before the run, with nothing written.
bool outputsUsable(const CliOptions& options) {
    try {
        checkOutputsApart(runInputs(options.run), outputsOf(options));
        for (const auto& [format, file] : plotOutputs(options))
            OutputFile plot(file, plotFormatName(format).toStdString());
        if (!options.summaryJson.empty())
            OutputFile json(options.summaryJson, "summary JSON");
        if (!options.traceCsv.empty())
            OutputFile csv(options.traceCsv, "trace CSV");
        if (!options.save.empty())
            OutputFile session(options.save, "session");
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return false;
    }
    return true;
}

// `--open FILE --export-png OUT`: the saved runs drawn as the live export drew them.
int exportOpened(const CliOptions& options) {
    std::vector<std::unique_ptr<RunTrace>> traces;
    OpenedSession session;
    try {
        checkOpenOutputs(options);
        for (const auto& [format, file] : plotOutputs(options))
            OutputFile plot(file, plotFormatName(format).toStdString());
        session = openSession(options.open);
        traces = sessionTraces(session);
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    Dashboard dashboard;
    std::vector<const RunTrace*> shown;
    for (const auto& trace : traces)
        shown.push_back(trace.get());
    dashboard.setRuns(shown);
    for (const RunSummary& run : session.summaries)
        printRun(run);
    return writeDrawn(options, session.experiment, session.summaries, dashboard);
}

} // namespace

int runHeadlessExport(const CliOptions& options) {
    if (!options.open.empty())
        return exportOpened(options);
    if (!outputsUsable(options))
        return 2;
    ExperimentOutputs outputs;
    outputs.eventCsv = options.traceCsv;
    outputs.session = options.save;
    outputs.commandLine = options.commandLine;
    outputs.cacheAfter = options.cacheAfter;
    ExperimentCallbacks callbacks;
    callbacks.notice = [](int, const std::string& text) {
        std::fprintf(stderr, "lookahead: %s\n", text.c_str());
    };
    callbacks.cancel = &SignalCancel::requested();
    std::optional<Experiment> experiment;
    std::unique_ptr<ViewTraces> views;
    ExperimentResult result;
    try {
        experiment = commandLineExperiment(options);
        if (!experiment)
            return SignalCancel::exitCode();
        // PostgreSQL's own figures, read before anything runs so that a bad file stops it, as the
        // headless import does; the observed run takes them again as it runs (runner.cpp).
        if (!options.explain.empty()) {
            const QString explain = QString::fromStdString(options.explain);
            observedScanOf(readExplainOutput(explain), explain);
        }
        views = std::make_unique<ViewTraces>(*experiment);
        views->follow(callbacks, [](const std::string& problem) {
            std::fprintf(stderr, "lookahead: %s\n", printable(problem).c_str());
        });
        result = runExperiment(*experiment, outputs, callbacks);
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    int exitCode = reportWriteErrors(result.writeErrors);
    for (const RunSummary& run : result.summaries) {
        printRun(run);
        if (!run.error.empty())
            exitCode = 1;
    }
    if (result.sessionWritten)
        std::printf("wrote %s (session)\n", printable(options.save).c_str());
    Dashboard dashboard;
    dashboard.setRuns(views->traces());
    const int drawn = writeDrawn(options, *experiment, result.summaries, dashboard);
    return drawn != 0 ? drawn : exitCode;
}

} // namespace la

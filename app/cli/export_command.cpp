// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/export_command.h"

#include "cli/import_command.h"
#include "cli/run_command.h"
#include "cli/signal_cancel.h"
#include "dashboard.h"
#include "experiment/session_io.h"
#include "experiment/session_traces.h"
#include "experiment/summary_json.h"
#include "gui/event_csv_export.h"
#include "gui/run_controller.h"
#include "input_error.h"
#include "io/output_file.h"
#include "message_text.h"
#include "render/plot_file.h"
#include "render/png_export.h"
#include "tooltips.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <cstdio>

namespace la {

namespace {

void printRun(const RunSummary& s) {
    std::printf("policy %s: %s blocks, %s reads, %s waits (%s), run time %s, %zu collapse(s)%s\n",
                printable(s.policy).c_str(), qPrintable(formatCount(s.blocks)),
                qPrintable(formatCount(s.ios)), qPrintable(formatCount(s.waits)),
                qPrintable(formatDuration(static_cast<double>(s.waitNs))),
                qPrintable(formatDuration(static_cast<double>(s.runtimeNs))), s.collapseIntervals.size(),
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

// The runs with their events, as the worker kept them; a run that never began has none.
std::vector<SpooledRun> spooledRuns(const RunController& controller) {
    std::vector<SpooledRun> runs;
    const std::vector<std::shared_ptr<const EventSpool>> spools = controller.spools();
    for (std::size_t i = 0; i < spools.size(); ++i)
        if (spools[i])
            runs.push_back({controller.variants()[i].label, spools[i]});
    return runs;
}

// The summary JSON and the plot files of runs on `dashboard`, finished. Returns the exit code.
int writeDrawn(const CliOptions& options, const Experiment& experiment, const std::vector<RunSummary>& runs,
               Dashboard& dashboard) {
    int exitCode = 0;
    dashboard.setVerdict(variantVerdict(experiment.runs, runs));
    if (runs.size() == 2)
        std::printf("%s\n", printable(dashboard.verdict().toStdString()).c_str());
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

// Everything after the worker is done: numbers, JSON, the PNG. Returns the exit code.
int finish(const CliOptions& options, const RunController& controller, Dashboard& dashboard) {
    const std::vector<RunSummary> runs = controller.summaries();
    Experiment experiment = controller.experiment();
    experiment.provenance = experimentProvenance(experiment, runs, options.commandLine);
    int exitCode = 0;
    for (const RunSummary& run : runs) {
        printRun(run);
        if (!run.error.empty())
            exitCode = 1;
    }
    if (!options.traceCsv.empty()) {
        if (const std::string error =
                writeTraceCsv(options.traceCsv, spooledRuns(controller), nullptr, nullptr);
            !error.empty()) {
            std::fprintf(stderr, "lookahead: %s\n", error.c_str());
            exitCode = 1;
        }
    }
    if (!options.save.empty()) {
        if (const std::string error = saveSpooledSession(options.save, experiment, runs, controller.spools());
            !error.empty()) {
            std::fprintf(stderr, "lookahead: %s\n", error.c_str());
            exitCode = 1;
        } else {
            std::printf("wrote %s (session)\n", printable(options.save).c_str());
        }
    }
    const int drawn = writeDrawn(options, experiment, runs, dashboard);
    return drawn != 0 ? drawn : exitCode;
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
    RunController controller;
    controller.setKeepEvents(!options.traceCsv.empty() || !options.save.empty());
    Dashboard dashboard;
    int exitCode = 0;
    QObject::connect(&controller, &RunController::tracesChanged, &dashboard,
                     [&] { dashboard.setRuns(controller.traces()); });
    QObject::connect(&controller, &RunController::notice, &dashboard,
                     [](const QString& text) { std::fprintf(stderr, "lookahead: %s\n", qPrintable(text)); });
    QObject::connect(&controller, &RunController::failed, &dashboard, [&](const QString& message) {
        std::fprintf(stderr, "lookahead: %s\n", qPrintable(message));
        exitCode = 2;
    });
    QObject::connect(&controller, &RunController::finished, &dashboard, [&] {
        if (exitCode == 0)
            exitCode = finish(options, controller, dashboard);
        QCoreApplication::exit(exitCode);
    });
    QSocketNotifier signalWatch(SignalCancel::notifyFd(), QSocketNotifier::Read);
    QObject::connect(&signalWatch, &QSocketNotifier::activated, &controller, [&] {
        signalWatch.setEnabled(false);
        controller.stop();
    });
    if (options.importTrace.empty()) {
        controller.start(makeExperiment(options.run, options.comparison));
    } else {
        try {
            std::optional<ObservedTrace> trace = importTraceFor(options);
            if (!trace)
                return SignalCancel::exitCode();
            controller.start(makeImportExperiment(std::make_shared<const ObservedTrace>(std::move(*trace)),
                                                  options.importTrace, options.run));
        } catch (const InputError& error) {
            std::fprintf(stderr, "lookahead: %s\n", error.what());
            return 2;
        }
    }
    if (!controller.running())
        return exitCode;
    return QCoreApplication::exec();
}

} // namespace la

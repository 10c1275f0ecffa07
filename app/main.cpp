// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/calibrate_command.h"
#include "cli/capture_command.h"
#include "cli/cli_options.h"
#include "cli/dataset_listing.h"
#include "cli/export_command.h"
#include "cli/import_command.h"
#include "cli/open_command.h"
#include "cli/record_command.h"
#include "cli/run_command.h"
#include "cli/sweep_command.h"
#include "experiment/signal_cancel.h"
#include "gui/window/gui_main.h"
#include "input_error.h"

#include <QApplication>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Without a display Qt would abort in the QApplication constructor; say what to do instead.
bool displayAvailable() {
    return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || std::getenv("QT_QPA_PLATFORM");
}

// Output to a full disk or a closed pipe must not pass for success: a script reading our stdout
// would take a cut-off listing for a whole one.
int checkedStdout(int exitCode) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "lookahead: cannot write standard output: %s\n", std::strerror(errno));
        return exitCode == 0 ? 1 : exitCode;
    }
    return exitCode;
}

// The binary's own path, so the commands a sweep prints run this very build.
std::string selfPath(const char* argv0) {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, std::size_t(n)) : std::string(argv0);
}

int run(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "sweep") {
        la::SignalCancel::install();
        // The maps are drawn by QCustomPlot, which needs a QApplication; no display is used.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        la::configureApplication();
        return la::runSweepCommand({args.begin() + 1, args.end()}, selfPath(argv[0]));
    }
    if (!args.empty() && args.front() == "record") {
        la::SignalCancel::install();
        // The replay may draw plots (--export-png), with QWidgets: offscreen, no display used.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        la::configureApplication();
        return la::runRecordCommand({args.begin() + 1, args.end()});
    }
    if (!args.empty() && args.front() == "calibrate") {
        la::SignalCancel::install();
        std::string commandLine = "lookahead";
        for (const std::string& arg : args)
            commandLine += " " + arg;
        return la::runCalibrateCommand({args.begin() + 1, args.end()}, commandLine);
    }
    if (!args.empty() && args.front() == "capture") {
        la::SignalCancel::install();
        return la::runCaptureCommand({args.begin() + 1, args.end()});
    }
    la::CliOptions options;
    try {
        options = la::parseCommandLine(args);
    } catch (const la::InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    if (options.help) {
        std::fputs(la::usageText().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("lookahead %s\n", LOOKAHEAD_VERSION);
        return 0;
    }
    if (options.listDatasets) {
        std::fputs(la::datasetListing().c_str(), stdout);
        return 0;
    }
    la::SignalCancel::install();
    const bool drawn = options.drawsPlots();
    if (options.headless && !drawn)
        return !options.open.empty()          ? la::runOpenHeadless(options)
               : !options.importTrace.empty() ? la::runImportHeadless(options)
                                              : la::runHeadless(options);
    if (drawn) {
        // QCustomPlot draws with QWidgets, so the export needs a QApplication, offscreen.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        la::configureApplication();
        return la::runHeadlessExport(options);
    }
    if (!displayAvailable()) {
        std::fprintf(stderr, "lookahead: no display to open the window on; use --headless (see --help)\n");
        return 2;
    }
    QApplication app(argc, argv);
    la::configureApplication();
    return la::runGui(options);
}

} // namespace

// One binary, two front ends, chosen before any QApplication exists: the command-line paths need no
// display (and --headless without --export-png no GUI library at all).
int main(int argc, char** argv) {
    try {
        const int exitCode = run(argc, argv);
        // Whatever a signal interrupted (a run, a read of a stalled pipe) ends as the signal says.
        return checkedStdout(la::SignalCancel::exitCodeOr(exitCode));
    } catch (const std::bad_alloc&) {
        // The last line of defence: sizes are checked before allocating (memory_budget.h).
        std::fprintf(stderr, "lookahead: out of memory; try a smaller dataset or --shared-buffers\n");
    } catch (const std::exception& error) {
        std::fprintf(stderr, "lookahead: internal error: %s\n", error.what());
    }
    return 70; // EX_SOFTWARE
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_options.h"
#include "gui_main.h"
#include "headless.h"
#include "headless_export.h"
#include "input_error.h"

#include <QApplication>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// Without a display Qt would abort in the QApplication constructor; say what to do instead.
bool displayAvailable() {
    return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || std::getenv("QT_QPA_PLATFORM");
}

} // namespace

// One binary, two front ends, chosen before any QApplication exists: the command-line paths need no
// display (and --headless without --export-png no GUI library at all).
int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
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
    if (options.headless && options.exportPng.empty())
        return la::runHeadless(options);
    if (!options.exportPng.empty()) {
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

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/command_experiment.h"
#include "experiment/command_outputs.h"
#include "experiment/experiment.h"
#include "render/plot_file.h"
#include "run.h"

#include <optional>
#include <string>
#include <vector>

namespace la {

// What the command line asked for. The same options configure a headless run and preconfigure
// the window, so both front ends agree on names and defaults.
struct CliOptions {
    RunConfig run;
    // What B changes: --compare-policy, --compare-direction, --compare-backward-combining or
    // --compare-index-batches.
    Comparison comparison = Comparison::None;
    bool headless = false;
    bool listDatasets = false;
    bool help = false;
    bool version = false;
    bool startRun = false;  // --run: the window starts the run at once
    CommandOutputs outputs; // --summary-json, --trace-csv, --cache-after, --export-*, --save FILE
    int pngWidth = kDefaultExportSize.width(); // --png-size WxH
    int pngHeight = kDefaultExportSize.height();
    std::string importTrace;                   // --import-trace FILE: an observed run instead of a dataset
    std::string traceFormat = "auto";          // --trace-format
    std::string traceRelation;                 // --trace-relation PATH|fd:N
    std::string explain;                       // --explain FILE: PostgreSQL's EXPLAIN of the traced query
    std::optional<std::uint32_t> traceBackend; // --trace-backend PID: the process that ran the scan
    std::string sweep;                         // --sweep SPEC: open the Sweep view on it (--run starts it)
    std::vector<std::string> given;            // option names present on the command line (without "--")
    std::string open;                          // --open FILE: a saved session instead of a new run
    std::optional<int> node;                   // --node ID: with --open, the plan node shown
    std::string commandLine;                   // "lookahead ARGS...", for the provenance
    QJsonObject recorded; // set by `lookahead record`: what it recorded (Experiment::recorded)

    // Drawn offscreen: any of --export-png, --export-svg, --export-pdf, or an imported trace saved
    // (from the window's path, which keeps every event of both runs).
    bool drawsPlots() const {
        return !outputs.exportPng.empty() || !outputs.exportSvg.empty() || !outputs.exportPdf.empty() ||
               (!importTrace.empty() && !outputs.save.empty());
    }
};

// Throws InputError with a one-line message for anything malformed or unknown.
CliOptions parseCommandLine(const std::vector<std::string>& args);

std::string usageText();

// The command line gives the scan's visits for an imported trace's model (--dataset, --blocks,
// --pg-index or --pg-heap).
bool visitsGiven(const CliOptions& options);

// What the command line asks to run: the run and its comparison, or a trace to import beside its model.
ExperimentRequest experimentRequest(const CliOptions& options);

// Every option name the command line takes, without "--" (the command's own, the run's and their
// negations): what an unknown option is compared with.
std::vector<std::string> optionNames();

// False for the options of the command line itself (--headless, --summary-json, --run, ...): only
// the others describe a run, and only those override the window's saved settings.
bool describesRun(const std::string& name);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_options.h"
#include "io/output_guard.h"

namespace la {

// Runs the configured policies without a window, prints their summaries and writes the requested
// files. Returns the process exit code: 0, 1 on an I/O error mid-run, 2 on bad input,
// 1 if an output cannot be written, 128 + N after signal N (SIGINT, SIGTERM) cancelled the run.
int runHeadless(const CliOptions& options);

// The files the command line asks to write, named by their options.
std::vector<NamedPath> outputsOf(const CliOptions& options);

// A run's summary as the headless run prints it, under `label`.
std::string describeRun(const std::string& label, const RunSummary& summary);

// The --list-datasets text.
std::string datasetListing();

} // namespace la

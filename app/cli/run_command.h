// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "event_csv.h"
#include "io/output_file.h"
#include "io/output_guard.h"
#include "session/session_file.h"

#include <QByteArray>

#include <memory>
#include <optional>

namespace la {

// Runs the configured policies without a window, prints their summaries and writes the requested
// files. Returns the process exit code: 0, 1 on an I/O error mid-run, 2 on bad input,
// 1 if an output cannot be written, 128 + N after signal N (SIGINT, SIGTERM) cancelled the run.
int runHeadless(const CliOptions& options);

// The files the command line asks to write, named by their options.
std::vector<NamedPath> outputsOf(const CliOptions& options);

// Commits the trace CSV and writes the summary JSON `document`; reports each write error on stderr.
// Returns 0, or 1 if anything could not be written.
int writeOutputs(std::unique_ptr<EventCsvWriter>& csv, std::optional<OutputFile>& json,
                 const QByteArray& document);

// `--headless --open FILE`: prints the saved runs' summaries and verdict and writes --summary-json
// from them (session_headless.cpp). Exit code 2 with one line on stderr for a file that cannot be used.
int runOpenHeadless(const CliOptions& options);
// Before --open reads anything: no output may be the session itself, and nothing new is written
// (--save, --trace-csv). Throws InputError.
void checkOpenOutputs(const CliOptions& options);

// Stores the experiment's compare mode and provenance and commits the session; reports a write
// error on stderr. Returns 0, or 1 if the session could not be written.
int writeSession(SessionWriter& session, const Experiment& experiment);

// The --list-datasets text.
std::string datasetListing();

} // namespace la

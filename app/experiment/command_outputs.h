// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/runner.h"
#include "experiment/session_io.h"
#include "files/output_guard.h"

#include <QByteArray>

#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace la {

// The files a command writes, resolved once from its options.
struct CommandOutputs {
    std::string traceCsv;    // --trace-csv: every event of every run
    std::string summaryJson; // --summary-json
    std::string exportPng;   // --export-png, --export-svg, --export-pdf: the plots drawn offscreen
    std::string exportSvg;
    std::string exportPdf;
    std::string save;       // --save: the runs as a session
    std::string cacheAfter; // --cache-after: the model's shared buffers after its run

    // Every one given, named by its option.
    std::vector<NamedPath> named() const;
    // What runExperiment writes of them as it runs.
    ExperimentOutputs experiment(const std::string& commandLine) const;
};

// Which outputs checkOutputs() opens to see that they can be created.
enum class OutputProbe {
    AfterRuns, // those written after the runs (summary JSON, plots): runExperiment opens its own first
    All,       // every one: something else (a live server) is touched before the runs
};

// The one check of a command's outputs, before anything is read, run or written: none may be an
// input or another output, and each that `probe` names is opened and let go unwritten (bad output
// paths are bad input). Throws InputError.
void checkOutputs(const std::vector<NamedPath>& inputs, const CommandOutputs& outputs,
                  OutputProbe probe = OutputProbe::AfterRuns);

// Bad input ends a command: its message on stderr. Returns the command's exit code, 2.
int reportBadInput(const std::exception& error);

// Prints each output that could not be written on stderr. Returns 0, or 1 if there was any.
int reportWriteErrors(const std::vector<std::string>& errors);

// Before a saved session is read for a command: no output may be the session itself, and nothing a
// new run writes is asked for (--save, --trace-csv). Throws InputError.
void checkOpenOutputs(const std::string& session, const CommandOutputs& outputs);

// A saved session read for a command (`--open FILE`): its outputs checked against it first, and with
// `node` (--node) the recording's node its runs must model (requireModelledNode), whose summary line
// is printed first. Throws InputError.
OpenedSession openSessionForCommand(const std::string& path, const CommandOutputs& outputs,
                                    std::optional<int> node);

// Writes the summary JSON `document` to `path` (if one is given) and reports a write error on stderr.
// Returns 0, or 1 if it could not be written.
int writeJson(const std::string& path, const QByteArray& document);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/command_outputs.h"
#include "experiment/experiment.h"
#include "observed/trace_importer.h"

#include <QJsonObject>

#include <optional>
#include <string>

namespace la {

// What a command asks to run, resolved from its options.
struct ExperimentRequest {
    RunConfig run;
    Comparison comparison = Comparison::None;
    TraceImportRequest trace; // --import-trace and its options; no path: nothing is imported
    std::string explain;      // --explain: PostgreSQL's EXPLAIN of the traced query
    // The command gives the scan's visits (a dataset, a block list, an index or heap): the traced
    // scan's model replays them rather than the trace's reads.
    bool visitsGiven = false;
    QJsonObject recorded; // what `lookahead record` recorded (Experiment::recorded)
};

// Checks the request's inputs against `outputs`, imports the trace (progress on a terminal's stderr,
// cancelled by SIGINT/SIGTERM: nothing returned) and notes on stderr what was chosen and what the
// trace lacks. Throws InputError for a trace that cannot be used.
std::optional<ObservedTrace> importRequestedTrace(const ExperimentRequest& request,
                                                  const CommandOutputs& outputs);

// The experiment a command asks for: A (and B) of the run and its comparison, or the imported trace
// beside its model (imported as importRequestedTrace() does). Nothing when a signal cancelled the
// import. Throws InputError.
std::optional<Experiment> requestedExperiment(const ExperimentRequest& request,
                                              const CommandOutputs& outputs);

} // namespace la

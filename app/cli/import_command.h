// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "observed/observed_trace.h"

#include <optional>

namespace la {

// `--headless --import-trace FILE`: imports the trace as an observed run, models its block sequence
// with --compare-policy (or --policy), prints both and the verdict, and writes --summary-json and
// --trace-csv. Exit codes as runHeadless(): 2 with one line on stderr for a trace that cannot be used.
int runImportHeadless(const CliOptions& options);

// The import step of both: checks inputs against outputs, imports (progress on a terminal's stderr,
// cancelled by SIGINT/SIGTERM: nothing returned) and notes on stderr what was chosen and what the
// trace lacks. Throws InputError for a trace that cannot be used.
std::optional<ObservedTrace> importTraceFor(const CliOptions& options);

// The experiment the command line describes: A (and B) of --policy and the comparison, or, with
// --import-trace, the imported trace beside its model (imported as importTraceFor() does). Nothing
// when a signal cancelled the import. Throws InputError.
std::optional<Experiment> commandLineExperiment(const CliOptions& options);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

namespace la {

// `--headless --import-trace FILE`: imports the trace as an observed run, models its block sequence
// with --compare-policy (or --policy), prints both and the verdict, and writes --summary-json and
// --trace-csv. Exit codes as runHeadless(): 2 with one line on stderr for a trace that cannot be used.
int runImportHeadless(const CliOptions& options);

} // namespace la

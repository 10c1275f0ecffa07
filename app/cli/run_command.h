// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

namespace la {

// Runs the configured policies without a window, prints their summaries and writes the requested
// files. Returns the process exit code: 0, 1 on an I/O error mid-run, 2 on bad input,
// 1 if an output cannot be written, 128 + N after signal N (SIGINT, SIGTERM) cancelled the run.
int runHeadless(const CliOptions& options);

} // namespace la

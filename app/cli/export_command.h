// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

namespace la {

// `--headless --export-png FILE` (and --export-svg, --export-pdf): runs the experiment through the
// one driver (runExperiment) on this thread, each run's events into the views' traces, renders the
// window's dashboard offscreen from them and writes the files. With --open, draws a saved session's
// runs instead. Needs a QApplication (offscreen platform); returns the exit code like runHeadless().
int runHeadlessExport(const CliOptions& options);

} // namespace la

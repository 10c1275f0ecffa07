// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

namespace la {

// `--headless --export-png FILE`: runs the experiment exactly as the window does (RunController on a
// worker thread, drained by the event loop), renders the same dashboard offscreen and writes the
// PNG. Needs a QApplication (offscreen platform); returns the exit code like runHeadless().
int runHeadlessExport(const CliOptions& options);

} // namespace la

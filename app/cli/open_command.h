// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "experiment/session_io.h"

namespace la {

// `--headless --open FILE`: prints the saved runs' summaries and verdict and writes --summary-json
// from them. Exit code 2 with one line on stderr for a file that cannot be used.
int runOpenHeadless(const CliOptions& options);

// The session of --open, with its outputs checked against it and --node's node required to be the
// one its runs model (whose line is printed first). Throws InputError.
OpenedSession openForCommand(const CliOptions& options);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

namespace la {

// `--headless --open FILE`: prints the saved runs' summaries and verdict and writes --summary-json
// from them. Exit code 2 with one line on stderr for a file that cannot be used.
int runOpenHeadless(const CliOptions& options);

} // namespace la

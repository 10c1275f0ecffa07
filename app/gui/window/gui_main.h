// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

namespace la {

// Organisation and application names (QSettings), version and icon; call right after the
// QApplication is created.
void configureApplication();

// Opens the window preconfigured by `options` and runs the event loop.
int runGui(const CliOptions& options);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace la {

// `lookahead calibrate [--file PATH] --out PROFILE.json [--seconds S] [--cache-dir DIR]
// [--scratch-mib N]` (docs/simulated-device.md, "Calibrated profiles"). `args` follow the word
// "calibrate". Returns the exit code: 0, 2 for bad input, 1 for a failed read or write, 130/143 when
// cancelled (nothing is written then).
int runCalibrateCommand(const std::vector<std::string>& args, const std::string& commandLine);

std::string calibrateUsageText();

} // namespace la

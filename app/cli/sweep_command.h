// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace la {

// `lookahead sweep SPEC [--out DIR] [--jobs N] [--force] [--formats png,svg] [--emit-commands]
// [--merge DIR]` (docs/sweeps.md). `args` follow the word "sweep". Needs a QApplication for the maps.
// Returns the exit code: 0, 2 for bad input, 1 for a failed write, 130/143 when cancelled.
int runSweepCommand(const std::vector<std::string>& args, const std::string& lookaheadBinary);

std::string sweepUsageText();

} // namespace la

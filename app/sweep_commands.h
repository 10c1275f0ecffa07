// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sweep_results.h"

#include <string>
#include <vector>

namespace la {

// A sweep spread over many machines (docs/sweeps.md "Beyond one machine"): one headless command per
// run, each writing its summary JSON to DIR/cells/, and a merge of those files into the results.

// "cells/c000012-pg18.json" (relative to the output directory); the baseline is "-baseline".
std::string sweepCellFile(const SweepResults& results, std::uint64_t cell, std::size_t policy);

// One self-contained shell command per run, in cell order: `lookahead` is the binary to name.
std::vector<std::string> sweepCommands(const SweepResults& results, const std::string& lookahead,
                                       const std::string& outDir);

// Reads every run's JSON file under `outDir`. Throws InputError naming the first missing or foreign
// file (one whose configuration is not its cell's) and how many are missing; a JSON file in
// cells/ that belongs to no run is foreign too.
SweepResults mergeSweep(const SweepSpec& spec, const std::string& outDir);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sweep/sweep_results.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace la {

// A sweep spread over many machines (docs/sweeps.md "Beyond one machine"): one headless command per
// run, each writing its summary JSON to DIR/cells/, and a merge of those files into the results.

// "cells/c000012-pg18.json" (relative to the output directory); the baseline is "-baseline".
std::string sweepCellFile(const SweepSpec& spec, std::uint64_t cell, std::size_t policy);

// One self-contained shell command per run, in cell order, handed to `print` as soon as its cell is
// configured: nothing is kept, so the first command comes at once and memory stays flat however
// many cells there are. `lookahead` is the binary to name. A bad cell throws InputError naming it
// (the commands of the cells before it have been emitted). Stops, returning false, when `emit`
// returns false or `cancel` is set.
bool emitSweepCommands(const SweepSpec& spec, const std::string& lookahead, const std::string& outDir,
                       const std::atomic<bool>* cancel, const std::function<bool(const std::string&)>& print);

// Reads every run's JSON file under `outDir`. Throws InputError naming the first missing or foreign
// file (one whose configuration is not its cell's, or that is no regular file of at most
// kSweepCellFileBytes) and how many are missing; a JSON file in cells/ that belongs to no run is
// foreign too. A cancel leaves results.cancelled set.
SweepResults mergeSweep(const SweepSpec& spec, const std::string& outDir, const std::atomic<bool>* cancel,
                        const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace la {

// One axis of a sweep: a run option and the values it takes, in order (docs/sweeps.md).
struct SweepAxis {
    std::string option; // the option's command-line name ("miss-fraction")
    std::string title;  // for plots: "miss fraction (%)"
    bool numeric = false;
    std::vector<std::string> values; // as setRunOption() takes them
};

// A policy the sweep runs in every cell, optionally on other mechanics than its own.
struct SweepPolicy {
    std::string policy;
    std::string mechanics; // empty = the policy's own
    // "pg18", or "adaptive@pg18" with other mechanics: the CSV's and the maps' name for it.
    std::string label() const;
};

// An option and its value, as on a command line.
using OptionValue = std::pair<std::string, std::string>;

// A grid of headless runs: every combination of the axes' values (a cell) times every policy, plus
// in each cell the baseline fixed:<max_pinned> that slowdowns are measured against.
struct SweepSpec {
    std::string name;
    std::string source;            // the spec file, or "preset NAME"
    std::vector<OptionValue> base; // the options every cell starts from, in the spec's order
    std::vector<SweepAxis> axes;   // the first varies slowest; maps put it across, the second up
    std::vector<SweepPolicy> policies;

    std::uint64_t cells() const;
    // The values of each axis in `cell` (indices into SweepAxis::values).
    std::vector<std::size_t> coordinates(std::uint64_t cell) const;
    // The options that define `cell`: the base ones, then one per axis.
    std::vector<OptionValue> cellOptions(std::uint64_t cell) const;
    // The cell's configuration (policy still unset); throws InputError naming the cell and axis.
    RunConfig cellConfig(std::uint64_t cell) const;
    // The baseline of a cell: a constant distance of the max_pinned_buffers its settings give.
    std::string baselinePolicy(const RunConfig& cellConfig) const;
};

inline constexpr std::uint64_t kSweepCellLimit = 100'000;

// Reads a spec: a JSON file, or the name of a preset ("collapse-map"). Every cell is configured once
// to check it. Throws InputError naming the file and the axis, value or policy that is wrong; more
// than kSweepCellLimit cells need `force`.
SweepSpec loadSweepSpec(const std::string& specOrPreset, bool force);

// The presets' names and their JSON text (docs/sweeps.md "Presets").
const std::vector<std::pair<std::string, std::string>>& sweepPresets();

} // namespace la

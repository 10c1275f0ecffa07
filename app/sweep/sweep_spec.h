// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run.h"

#include <QByteArray>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace la {

class HeldDirectory;

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

    // Known to fit 64 bits, times the policies and the baseline too: loadSweepSpec() checks.
    std::uint64_t cells() const;
    // The values of each axis in `cell` (indices into SweepAxis::values).
    std::vector<std::size_t> coordinates(std::uint64_t cell) const;
    // The options that define `cell`: the base ones, then one per axis.
    std::vector<OptionValue> cellOptions(std::uint64_t cell) const;
    // The cell's configuration (policy still unset); throws InputError naming the cell and axis.
    RunConfig cellConfig(std::uint64_t cell) const;
    // cellConfig() checked as a run checks it; throws InputError naming the spec and the cell.
    RunConfig checkedCellConfig(std::uint64_t cell) const;
    // The baseline of a cell: a constant distance of the max_pinned_buffers its settings give.
    std::string baselinePolicy(const RunConfig& cellConfig) const;
};

inline constexpr std::uint64_t kSweepCellLimit = 100'000;
// A spec is a page of JSON and a run's summary a few pages: a file larger than this is not one
// (and /dev/zero must not be read until memory runs out).
inline constexpr std::uint64_t kSweepSpecBytes = std::uint64_t(4) << 20;
inline constexpr std::uint64_t kSweepCellFileBytes = std::uint64_t(64) << 20;
// The longest spec name and option value: they become map titles, axis labels and file names.
inline constexpr std::size_t kSweepNameBytes = 200;
inline constexpr std::size_t kSweepValueBytes = 4096;

// Reads a spec: a JSON file, or the name of a preset ("collapse-map"). Checks every value of every
// axis (each with the other axes at their first value) and opens the first and the last cell's block
// source; every cell is checked again when it is set up (prepareResults(), the emitted commands), so
// loading a spec of 10^9 cells takes no longer than one of ten. Throws InputError naming the file and
// the axis, value or policy that is wrong; more than kSweepCellLimit cells need `force`.
SweepSpec loadSweepSpec(const std::string& specOrPreset, bool force);

// The spec of "Sweep this run" (docs/sweeps.md): `config`'s options as the base, but for the
// policies, the repeats and the two axes, eic and io-combine-limit over powers of two; PostgreSQL
// 17, 18, 19 and adaptive as the policies. A recording's modelled node is swept on its own visits.
// A model whose visits are an imported trace's reads, held in memory, is swept on them written to
// `lists` as a block list ("visits.txt"). Throws InputError for a model whose cache state comes from
// an imported trace (a cache that changes during the scan, which no option names), and IoError if
// the list cannot be written.
QByteArray sweepSpecOfRun(RunConfig config, const std::string& name, const HeldDirectory& lists);
// A spec's JSON text read and checked as loadSweepSpec() does a file's; `source` names it in errors.
SweepSpec sweepSpecOfText(const QByteArray& text, const std::string& source);

// The presets' names and their JSON text (docs/sweeps.md "Presets").
const std::vector<std::pair<std::string, std::string>>& sweepPresets();

} // namespace la

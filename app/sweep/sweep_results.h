// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"
#include "summary_fields.h"
#include "sweep/sweep_spec.h"

#include <QJsonObject>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace la {

// What a sweep keeps of one run: the summary figures of sweepFigureTable() (summary_fields.h), in as
// little memory as a grid of millions of runs needs.
struct SweepFigures {
    bool done = false;
    std::array<double, kSweepFigureCount> values{}; // in sweepFigureTable()'s order
    std::vector<std::int64_t> repeatRuntimesNs;     // each repeat's run time, for a repeated run
    std::string error;                              // the run stopped on an error

    // The figure `field` of the summary table; throws std::logic_error for one a sweep does not keep.
    double value(std::string_view field) const;
};

SweepFigures figuresOf(const RunSummary& run);
// The same from a run of a summary JSON (a merged cell's file): its numbers read back exactly, so a
// merged sweep has the figures of one run here to the last digit.
SweepFigures figuresOf(const QJsonObject& run);

// Every run of a sweep: per cell, each policy of the spec and then the baseline.
struct SweepResults {
    SweepSpec spec;
    std::vector<SweepFigures> runs;
    std::vector<std::string> baselines; // per cell: "fixed:272"
    bool cancelled = false;

    std::size_t runsPerCell() const { return spec.policies.size() + 1; }
    // policy == spec.policies.size() is the baseline.
    const SweepFigures& at(std::uint64_t cell, std::size_t policy) const {
        return runs[cell * runsPerCell() + policy];
    }
    SweepFigures& at(std::uint64_t cell, std::size_t policy) { return runs[cell * runsPerCell() + policy]; }
    // Run time over the baseline's; NaN if either has none.
    double slowdown(std::uint64_t cell, std::size_t policy) const;
    // The policy's run and the baseline's were repeated and their run times do not differ beyond
    // noise by the rank test (docs/repeats.md).
    bool withinNoise(std::uint64_t cell, std::size_t policy) const;
    bool complete() const;
};

// Refuses (InputError) a sweep whose results, and `moreBytesPerRun` for each run, would take more
// memory than the process may use.
void requireSweepMemory(const SweepSpec& spec, std::uint64_t moreBytesPerRun = 0);

// Sets `results` up for its spec: checks every cell (a bad one throws InputError naming it) and names
// its baseline. Results that would take more than the memory allows are refused (InputError) before
// anything is allocated. The set-up of a large grid takes a while, so it calls `progress(cells
// checked, cells)` now and then and stops when `cancel` is set, returning false.
bool prepareResults(SweepResults& results, const std::atomic<bool>* cancel = nullptr,
                    const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

// A figure of a run, as the CSV's column and a map's colour.
struct SweepMetric {
    std::string_view key;   // CSV column and the maps' file names
    std::string_view title; // colour scale
    std::function<double(const SweepResults&, std::uint64_t cell, std::size_t policy)> value;
};

const std::vector<SweepMetric>& sweepMetrics();
const SweepMetric* findSweepMetric(std::string_view key);

// `text` with everything but letters, digits, '-' and '.' made '_', for the sweep's file names.
std::string fileSafeName(std::string text);

// One row per cell and policy: the cell, its axes' values, the policy, every metric.
std::string sweepCsv(const SweepResults& results);

} // namespace la

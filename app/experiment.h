// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run.h"

#include <QString>

#include <string>
#include <vector>

namespace la {

// One run of an experiment: its settings, its policy and the name the views give it.
struct RunVariant {
    RunConfig config;
    std::string policy;
    std::string label;
};

// What B changes relative to A (same dataset, same cache state).
enum class Comparison { None, Policy, Direction, BackwardCombining };

// "none", "policy", "direction", "backward-combining": the compare mode in the summary JSON.
const char* comparisonName(Comparison comparison);

// A alone, or A then B. The CLI, the window and the exports all describe runs by this.
struct Experiment {
    std::vector<RunVariant> runs;
    Comparison comparison = Comparison::None;
};

// Comparison::Policy uses config.comparePolicy (and falls back to None without one).
Experiment makeExperiment(const RunConfig& config, Comparison comparison);

// The A/B verdict with B's label ("B (pg19): 2.7x faster, 1,480 fewer waits").
QString variantVerdict(const std::vector<RunVariant>& runs, const std::vector<RunSummary>& summaries);

} // namespace la

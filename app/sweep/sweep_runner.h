// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sweep/sweep_results.h"

#include <atomic>
#include <cstdint>
#include <functional>

namespace la {

struct SweepProgress {
    std::uint64_t done = 0;  // runs finished (while setting up: cells checked)
    std::uint64_t total = 0; // runs in all (cells x (policies + baseline)); while setting up: cells
    double elapsedSeconds = 0.0;
    bool settingUp = false; // checking the cells, before the first run
    // Seconds still to go at the pace so far; negative until a run has finished.
    double etaSeconds() const;
};

// The configuration of run `policy` of `cell` (policy == policies.size(): the baseline).
RunConfig sweepRunConfig(const SweepResults& results, std::uint64_t cell, std::size_t policy);
// The same from the cell's configuration and its baseline, for cells set up one at a time.
RunConfig sweepRunConfig(const SweepSpec& spec, RunConfig cellConfig, const std::string& baseline,
                         std::size_t policy);

// Sets the sweep up (prepareResults(), which throws InputError for a bad cell), then runs every
// cell's policies and baseline on `jobs` threads (0 = one per core). Each run is a headless run of its
// own, so the results do not depend on `jobs` or on the order runs finish in. `progress` is called on
// the calling thread about five times a second, in the set-up too. A cancel, in the set-up or later,
// stops the runs going and leaves results.cancelled set (and the runs not done unmarked).
SweepResults runSweep(const SweepSpec& spec, int jobs, const std::atomic<bool>* cancel,
                      const std::function<void(const SweepProgress&)>& progress);

} // namespace la

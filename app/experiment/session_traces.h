// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/session_io.h"
#include "io/event_spool.h"
#include "run_trace.h"

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace la {

// The views' traces of a saved session, rebuilt by appending its stored events exactly as the live
// run appended them, each with its saved summary. Throws InputError if the events are damaged.
// `progress` (may be empty) gets events done and in all; `cancel` (may be null) stops it early:
// the traces returned are then empty. With `spools`, each run's events are also kept in a spool,
// as a live run's are, so that they can be saved again beside new runs.
std::vector<std::unique_ptr<RunTrace>>
sessionTraces(const OpenedSession& session, const std::atomic<bool>* cancel = nullptr,
              const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = {},
              std::vector<std::shared_ptr<const EventSpool>>* spools = nullptr);

// Writes `experiment`'s runs, as kept in their spools, to a session at `path`; returns an error
// message naming the file, empty on success. Runs without a spool are left out.
// `cancel` (may be null) stops it, leaving an existing file as it was; `progress` gets events written.
std::string saveSpooledSession(
    const std::string& path, const Experiment& experiment, const std::vector<RunSummary>& summaries,
    const std::vector<std::shared_ptr<const EventSpool>>& spools, const std::atomic<bool>* cancel = nullptr,
    const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = {});

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace la {

// What a run tells its caller while it runs (events, progress, notices), and how the caller stops it.
struct RunCallbacks {
    std::vector<EventSink*> sinks;
    // Blocks consumed so far out of the scan's length (called every few thousand blocks).
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    // Work before the scan, e.g. writing a dataset file: a stage label, bytes done and total.
    std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)> preparing;
    // Something the user should know that is not an error (a fallback, an ignored partial block).
    std::function<void(const std::string& message)> notice;
    // After the run: the relation's blocks valid in the model's shared buffers, ascending
    // (--cache-after). Only asked for when set: the list takes 4 bytes a block.
    std::function<void(std::vector<std::uint32_t> blocks)> cacheAfter;
    const std::atomic<bool>* cancel = nullptr;
};

} // namespace la

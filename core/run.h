// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dataset.h"
#include "event.h"
#include "sim_device.h"
#include "stream_config.h"
#include "summary.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace la {

// Everything that defines one experiment; the CLI and the GUI both fill one of these.
struct RunConfig {
    DatasetRequest dataset;
    std::string blockList; // a user's block list instead of a dataset
    // A block sequence in memory instead of a dataset (the blocks an imported trace read, in order).
    std::shared_ptr<const std::vector<std::uint32_t>> blockSequence;
    std::string policy = "pg18";
    std::string comparePolicy; // optional second run (A/B)
    StreamConfig stream;
    std::string prewarm;          // empty = the dataset's own cache state
    std::uint64_t poolBlocks = 0; // simulated shared buffers; 0 = 16384, grown to hold the prewarm set
    std::uint64_t resetEvery = 0;
    std::string io = "sim"; // sim, or a real backend: sync, worker, uring
    SimDeviceConfig device;
    // Real I/O (--io sync|worker|uring).
    std::string file;        // scan this file (read-only, never verified) instead of the dataset's own file
    bool directIo = true;    // O_DIRECT, falling back to buffered reads if refused
    bool osCacheCold = true; // evict the file from the OS page cache before the run
    int ioWorkers = 3;       // worker threads of --io worker (PostgreSQL's io_workers)
    std::string cacheDir;    // where dataset files are written; empty = $XDG_CACHE_HOME/lookahead/datasets
    std::int64_t consumerNs = 10'000; // consumer CPU per block
    int collapseWindow = 32;
};

struct RunCallbacks {
    std::vector<EventSink*> sinks;
    // Blocks consumed so far out of the scan's length (called every few thousand blocks).
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    // Work before the scan, e.g. writing a dataset file: a stage label, bytes done and total.
    std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)> preparing;
    // Something the user should know that is not an error (a fallback, an ignored partial block).
    std::function<void(const std::string& message)> notice;
    const std::atomic<bool>* cancel = nullptr;
};

// Checks the configuration and builds the block source; throws InputError on bad input.
std::unique_ptr<BlockSource> openSource(const RunConfig& config);

// Runs one policy over the configured dataset on the calling thread. Bad input throws InputError
// before anything runs; an I/O error mid-run ends it with summary.error set (events so far kept).
RunSummary runScan(const RunConfig& config, const std::string& policy, const RunCallbacks& callbacks);

} // namespace la

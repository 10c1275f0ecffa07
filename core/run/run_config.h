// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "buffer_strategy.h"
#include "dataset.h"
#include "io_mode.h"
#include "pg/pg_scan_config.h"
#include "run_callbacks.h"
#include "sim_device.h"
#include "stream_config.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace la {

struct TracedCache;

// Everything that defines one experiment; the CLI and the GUI both fill one of these.
struct RunConfig {
    DatasetRequest dataset;
    std::string blockList; // a user's block list instead of a dataset
    // The size of a block list's relation (0: its highest block + 1), which decides its strategy.
    std::uint64_t relationBlocks = 0;
    pg::PgScanConfig pg; // a real PostgreSQL index scan instead (docs/pg-relations.md)
    // A block sequence in memory instead of a dataset (the blocks an imported trace read, in order).
    std::shared_ptr<const std::vector<std::uint32_t>> blockSequence;
    // The blocks an imported trace read, in order, when the run models that trace on the scan's own
    // visits: the run's cache state comes from them (core/observed/traced_cache.h), not from --prewarm.
    std::shared_ptr<const std::vector<std::uint32_t>> tracedReads;
    // That cache state, when the front end has derived it already (to place the observed reads on
    // the same visits): the run then does not walk the visits again.
    std::shared_ptr<const TracedCache> tracedCache;
    std::string policy = "pg18";
    std::string comparePolicy; // optional second run (A/B)
    std::string mechanics;     // pg17, pg18 or pg19; empty = each policy's own
    StreamConfig stream;
    std::string prewarm; // empty = the dataset's own cache state
    // Simulated shared buffers, exactly; 0 = 16384, grown (and said so) to hold the cache state.
    std::uint64_t poolBlocks = 0;
    StrategyChoice strategy = StrategyChoice::Auto; // the buffer access strategy (--strategy)
    std::uint64_t resetEvery = 0;
    IoMode io = IoMode::Sim;
    SimDeviceConfig device;
    // A device profile file (--device-profile); the front end loads it into device.profile before
    // the run (app/experiment/device_profile_json.h: core reads no JSON).
    std::string deviceProfile;
    // Real I/O (--io sync|worker|uring).
    std::string file; // scan this file (read-only, never verified) instead of the dataset's own file
    // `file` is a PostgreSQL relation's first segment: its later segments are read too (the model
    // of an imported trace reads the relation the server read).
    bool fileIsRelation = false;
    // O_DIRECT (falling back to buffered reads if refused), or the page cache; both govern advice
    // as in PostgreSQL. Unset: O_DIRECT for real I/O, buffered on the simulated device (whose
    // reference figures are buffered runs, docs/simulated-device.md).
    std::optional<bool> directIo;
    bool osCacheCold = true; // evict the file from the OS page cache before the run
    // The I/O workers of io_method=worker, simulated or real (docs/mechanics.md, "I/O workers").
    int ioWorkers = 3;                           // PG18's fixed pool: io_workers
    int ioMinWorkers = 2;                        // PG19's growing pool: io_min_workers ...
    int ioMaxWorkers = 8;                        // ... io_max_workers
    std::int64_t ioWorkerLaunchIntervalMs = 100; // io_worker_launch_interval
    std::int64_t ioWorkerIdleTimeoutMs = 60'000; // io_worker_idle_timeout
    std::string cacheDir; // where dataset files are written; empty = $XDG_CACHE_HOME/lookahead/datasets
    std::int64_t consumerNs = 3'000; // consumer CPU per block (docs/simulated-device.md §2)
    int collapseWindow = 32;
    // A plan run's stream the views draw (docs/plan-runs.md); 0 in a run of one stream.
    std::uint8_t shownStream = 0;
    // Each run goes this many times, A and B interleaved, with real I/O; the summary is the median
    // run's, with every repeat's figures (docs/repeats.md). The simulated device runs once.
    int repeat = 1;
};

inline constexpr int kMaxRepeat = 100; // --repeat's most: a rank test needs far fewer

// The stream's settings as a run uses them: the io_method of a real backend, direct I/O resolved,
// shared_buffers from the pool size (StreamConfig's copies are derived here, never set apart).
StreamConfig streamConfigFor(const RunConfig& config);

// The cache state a run starts from: --prewarm, else the dataset's own ("none" for a block list, a
// traced block sequence or a PostgreSQL index scan).
std::string effectivePrewarm(const RunConfig& config);

} // namespace la

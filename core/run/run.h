// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "pg/index_scan.h"
#include "run_config.h"
#include "stream_pacer.h"
#include "summary.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace la {

// Checks the configuration and builds the block source; throws InputError on bad input. For a
// PostgreSQL index scan, `indexFacts` (if given) receives what the index showed, and `pacer` (if
// given) the source that paces the stream (a ring of batches), or nullptr.
std::unique_ptr<BlockSource> openSource(const RunConfig& config, pg::IndexFacts* indexFacts = nullptr,
                                        StreamPacer** pacer = nullptr);

// Runs one policy over the configured dataset on the calling thread. Bad input throws InputError
// before anything runs; an I/O error mid-run ends it with summary.error set (events so far kept).
RunSummary runScan(const RunConfig& config, const std::string& policy, const RunCallbacks& callbacks);

} // namespace la

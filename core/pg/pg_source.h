// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "dataset.h"
#include "index_scan.h"
#include "pg_scan_config.h"
#include "stream_pacer.h"

#include <memory>
#include <string>
#include <vector>

namespace la::pg {

// --pg-index/--pg-heap resolved against --pg-datadir: a relative path is under the data directory.
std::string resolvePath(const PgScanConfig& config, const std::string& path);

// Checks the options, reads the index and sizes the heap; the source plays the index scan's heap
// visits. Throws InputError naming the file and block for any bad input. A ring of batches paces
// the stream: `pacer` (if given) receives the source as one, or nullptr.
std::unique_ptr<BlockSource> openPgSource(const PgScanConfig& config, Direction direction, IndexFacts* facts,
                                          StreamPacer** pacer = nullptr);

} // namespace la::pg

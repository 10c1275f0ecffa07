// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "run_config.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace la {

// The file a real run reads.
struct ScanTarget {
    std::string path;
    std::uint64_t datasetId = 0;
    bool ours = false; // a dataset file we wrote: every page is verified
    // A PostgreSQL table (--pg-heap): its segment files, and the check of each page read.
    std::vector<std::string> segments;
    std::function<std::string(const std::byte* page, std::uint32_t block)> pageCheck;
    // The segments' sizes and modification times when the scan began, joined for comparison.
    std::string stamps;
};

// What changed in the target's files since prepareScanTarget() (empty: nothing): a file that
// changes under the scan is reported, never worked around.
std::string scanTargetChanges(const ScanTarget& target);

// Where a real run without --file keeps dataset files: --cache-dir or defaultDatasetDir(). Throws
// InputError if there is no directory to use.
std::string datasetCacheDir(const RunConfig& config);

// A --pg-heap table (checked page by page, checksums verified if `pgChecksums`), the user's --file as given
// (checked, opened read-only, never written), or the dataset's own file in the cache directory, written first
// if there is no valid one. Returns nothing if cancelled while writing. Throws InputError for a bad file or
// directory, IoError if writing fails.
std::optional<ScanTarget> prepareScanTarget(const RunConfig& config, const BlockSource& source,
                                            const RunCallbacks& callbacks, bool pgChecksums);

} // namespace la

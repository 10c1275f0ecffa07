// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "run.h"

#include <cstdint>
#include <optional>
#include <string>

namespace la {

// The file a real run reads.
struct ScanTarget {
    std::string path;
    std::uint64_t datasetId = 0;
    bool ours = false; // a dataset file we wrote: every page is verified
};

// Where a real run without --file keeps dataset files: --cache-dir or defaultDatasetDir(). Throws
// InputError if there is no directory to use.
std::string datasetCacheDir(const RunConfig& config);

// The user's --file as given (checked, opened read-only, never written), or the dataset's own file
// in the cache directory, written first if there is no valid one. Returns nothing if cancelled
// while writing. Throws InputError for a bad file or directory, IoError if writing fails.
std::optional<ScanTarget> prepareScanTarget(const RunConfig& config, const BlockSource& source,
                                            const RunCallbacks& callbacks);

} // namespace la

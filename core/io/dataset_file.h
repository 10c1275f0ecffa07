// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run_callbacks.h"

#include <cstdint>
#include <optional>
#include <string>

namespace la {

// A dataset's heap on disk: `blocks` pages in our page format (page_format.h).
struct DatasetFile {
    std::string path;
    std::uint64_t datasetId = 0;
    std::uint64_t blocks = 0;
};

// $XDG_CACHE_HOME/lookahead/datasets, or ~/.cache/lookahead/datasets when XDG_CACHE_HOME is unset
// or not absolute (the XDG spec says to ignore relative paths).
std::string defaultDatasetDir();

// Creates what is missing of `dir` with mode 0700 and checks that the whole path is private (ours
// or root's, writable by nobody else unless sticky). Throws InputError.
void preparePrivateDir(const std::string& dir);

// The file's name without extension: "<name>-<scale>-<seed>-<blocks>", with characters that do not
// belong in a file name (the ':' of "sparse-miss:16") replaced by '_'.
std::string datasetFileKey(const std::string& name, double scale, std::uint64_t seed, std::uint64_t blocks);

// True if `path` is a complete, non-sparse file of `blocks` pages of `datasetId` (a sample of the
// pages is checked; every page is checked again when the run reads it).
bool isValidDatasetFile(const std::string& path, std::uint64_t datasetId, std::uint64_t blocks);

// Returns `dir`/`key`.heap, writing it first unless a valid one exists. The file is written in
// full (never sparse: a hole is read without device I/O) under a temporary name and renamed when
// complete, so a cancelled or failed write leaves nothing behind. Reports progress through
// callbacks.preparing; returns nothing if callbacks.cancel was set. Throws InputError if the
// directory cannot be used or lacks the space, IoError if writing fails.
std::optional<DatasetFile> materializeDataset(const std::string& dir, const std::string& key,
                                              std::uint64_t blocks, const RunCallbacks& callbacks);

} // namespace la

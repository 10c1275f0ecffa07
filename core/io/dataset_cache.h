// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace la {

// The dataset files Lookahead wrote into a cache directory: real runs of a dataset write one file
// per dataset, size and seed (dataset_file.h), and they add up over an afternoon of trying sizes.
struct DatasetCache {
    std::string dir;
    std::vector<std::string> files; // ours only: regular files we own whose first page is our format
    std::uint64_t bytes = 0;        // allocated on disk
};

// Lists our dataset files in `dir`; a directory that does not exist is an empty cache. Throws nothing:
// an unreadable directory is listed as empty with `error` set.
DatasetCache listDatasetCache(const std::string& dir, std::string* error = nullptr);

// Deletes the listed files that are still ours (checked again: a file may have been replaced since).
// Returns the bytes freed; `error` names the first file that could not be removed.
std::uint64_t clearDatasetCache(const DatasetCache& cache, std::string* error = nullptr);

} // namespace la

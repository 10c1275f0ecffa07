// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "extent_map.h"

#include <cstdint>
#include <string>
#include <vector>

namespace la {

// Where a file's bytes are on its file system's device, by FS_IOC_FIEMAP (delayed allocations
// written out first, so a freshly written file has its places).
struct FileExtents {
    std::uint32_t major = 0, minor = 0; // the file system's device (st_dev)
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::vector<FileExtent> extents; // physical: bytes on the file system's device
    // Bytes in extents without a device address of their own (inline, encoded or not yet placed):
    // reads of them cannot be told apart on the device.
    std::uint64_t unplaced = 0;
};

// Fills `out`; returns an error message naming `path`, empty on success.
std::string readFileExtents(const std::string& path, FileExtents& out);

} // namespace la

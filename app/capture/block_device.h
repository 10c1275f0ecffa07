// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>

namespace la {

// Where the block requests for a file system's device go: a partition's requests reach the tracepoints
// as the whole disk's, their sectors counted from the disk's start.
struct RequestDevice {
    std::uint32_t major = 0, minor = 0; // the disk
    std::uint64_t startSector = 0;      // the partition's first sector on it (0 for a whole disk)
};

// The request device of file system device major:minor (from /sys/dev/block); an error message saying
// why its requests cannot be followed (no block device, device-mapper, software RAID), empty on success.
QString requestDeviceOf(std::uint32_t major, std::uint32_t minor, RequestDevice& out);

} // namespace la

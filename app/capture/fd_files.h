// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed/kernel_capture.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace la {

// Which file of interest a traced task's descriptor is open on, from /proc/PID/fd/FD (the file's
// device and inode), asked when its call's events are read. The answer for each descriptor is kept:
// a task that has ended or closed the descriptor since is told by what it was last seen open on.
class FdFiles {
public:
    explicit FdFiles(const std::vector<CapturedFile>& files);
    KernelCapture::FdFile resolve(std::uint32_t pid, std::int64_t fd);

private:
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_files; // st_dev, st_ino by file index
    std::map<std::pair<std::uint32_t, std::int64_t>, KernelCapture::FdFile> m_seen;
};

} // namespace la

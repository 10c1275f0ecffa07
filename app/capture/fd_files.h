// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed/kernel_capture.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace la {

// Which file of interest a traced process's descriptor is open on, from /proc/PID/fd/FD (the file's
// device and inode), asked when its call's events are read. PID is the calling task's process where
// the trace records it (its threads share the descriptors), else the task. A descriptor is looked up
// once per batch of events (newBatch()), not once per call: a scan makes thousands of calls on one
// descriptor, and each lookup is a system call the traced scan competes with. Each answer comes with
// the one before it: by the time a call's events are read its descriptor may have been closed and its
// number given to another file, and then the earlier lookup is the one that tells it (KernelCapture
// decides which from the traced closes).
class FdFiles {
public:
    explicit FdFiles(const std::vector<CapturedFile>& files);
    KernelCapture::FdFile resolve(std::uint32_t pid, std::int64_t fd);
    // The events read next came after those read so far: descriptors are looked up again.
    void newBatch() { ++m_batch; }
    // Descriptors seen open on a file of interest so far: the reader reads calls promptly until the
    // first and while new ones appear. Others do not count: a program's loader reads its libraries
    // through descriptors that the scan's file may get next, and that file must be looked up while
    // it is open (afterwards its descriptor would be told by what it was last seen open on).
    std::size_t descriptors() const;

private:
    struct Seen {
        KernelCapture::FdFile lookups;
        std::uint64_t batch = 0; // when it was last looked up
    };
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_files; // st_dev, st_ino by file index
    std::map<std::pair<std::uint32_t, std::int64_t>, Seen> m_seen;
    std::uint64_t m_batch = 1;
};

} // namespace la

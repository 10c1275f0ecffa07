// SPDX-License-Identifier: GPL-3.0-or-later
#include "fd_files.h"

#include <sys/stat.h>
#include <time.h>

#include <string>

namespace la {

namespace {
// The trace clock ("mono").
std::int64_t monotonicNs() {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}
} // namespace

FdFiles::FdFiles(const std::vector<CapturedFile>& files) {
    for (const CapturedFile& file : files) {
        struct stat info {};
        // The device as stat() gives it; a file that cannot be stat()ed matches no descriptor.
        if (::stat(file.path.c_str(), &info) == 0)
            m_files.emplace_back(info.st_dev, info.st_ino);
        else
            m_files.emplace_back(~std::uint64_t{0}, ~std::uint64_t{0});
    }
}

KernelCapture::FdFile FdFiles::resolve(std::uint32_t pid, std::int64_t fd) {
    Seen& seen = m_seen[std::make_pair(pid, fd)];
    if (seen.batch == m_batch)
        return seen.lookups;
    seen.batch = m_batch;
    // The latest lookup becomes the earlier one; a failed lookup leaves the earlier answer standing.
    if (seen.lookups.latest)
        seen.lookups.earlier = seen.lookups.latest;
    seen.lookups.latest.reset();
    const std::string link = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
    struct stat info {};
    const std::int64_t before = monotonicNs();
    if (fd >= 0 && ::stat(link.c_str(), &info) == 0) {
        KernelCapture::FdAnswer answer;
        answer.fromNs = before;
        answer.toNs = monotonicNs();
        const std::pair<std::uint64_t, std::uint64_t> identity(info.st_dev, info.st_ino);
        for (std::uint32_t i = 0; i < m_files.size(); ++i)
            if (m_files[i] == identity)
                answer.file = i;
        seen.lookups.latest = answer;
    }
    return seen.lookups;
}

std::size_t FdFiles::descriptors() const {
    std::size_t count = 0;
    for (const auto& [key, seen] : m_seen)
        count += seen.lookups.latest && seen.lookups.latest->file ? 1 : 0;
    return count;
}

} // namespace la

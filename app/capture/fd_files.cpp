// SPDX-License-Identifier: GPL-3.0-or-later
#include "fd_files.h"

#include <sys/stat.h>

#include <string>

namespace la {

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
    const auto key = std::make_pair(pid, fd);
    if (const auto seen = m_seen.find(key); seen != m_seen.end() && seen->second.batch == m_batch)
        return seen->second.file;
    const std::string link = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
    struct stat info {};
    if (fd < 0 || ::stat(link.c_str(), &info) != 0) {
        // Closed, or its process gone: told by what it was last seen open on, if that was a file of
        // interest. Not if it was another file: a descriptor number the loader used for a library
        // is often the one the scan's file gets next, and a call on it would be dropped unseen.
        const auto seen = m_seen.find(key);
        return seen == m_seen.end() || !seen->second.file.file ? KernelCapture::FdFile{} : seen->second.file;
    }
    KernelCapture::FdFile found{true, std::nullopt};
    const std::pair<std::uint64_t, std::uint64_t> identity(info.st_dev, info.st_ino);
    for (std::uint32_t i = 0; i < m_files.size(); ++i)
        if (m_files[i] == identity)
            found.file = i;
    m_seen[key] = Seen{found, m_batch};
    return found;
}

std::size_t FdFiles::descriptors() const {
    std::size_t count = 0;
    for (const auto& [key, seen] : m_seen)
        count += seen.file.file ? 1 : 0;
    return count;
}

} // namespace la

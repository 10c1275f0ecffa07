// SPDX-License-Identifier: GPL-3.0-or-later
#include "spill_file.h"

#include "message_text.h"
#include "scan_file.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace la {

namespace {
// Left free on the file system, as for the event spool: the views' columns of a very long run must
// never fill the user's disk. They stay in memory instead.
constexpr std::uint64_t kSpareBytes = 1ULL << 30;
} // namespace

SpillFile::SpillFile(const std::string& dir) : m_dir(dir) {
    if (const int error = m_file.create(dir, "run-views.spill", 0600, O_RDWR); error != 0)
        fail(std::string("cannot be created: ").append(std::strerror(error)));
}

std::int64_t SpillFile::append(const void* data, std::size_t bytes) {
    if (!m_broken.empty())
        return -1;
    struct statvfs fs {};
    if (::fstatvfs(m_file.fd(), &fs) == 0 &&
        static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize < kSpareBytes + bytes) {
        fail(std::string("less than ")
                 .append(byteSize(kSpareBytes))
                 .append(" would be left free on its file system"));
        return -1;
    }
    const std::uint64_t offset = m_size;
    if (const int error = writeFully(m_file.fd(), static_cast<const std::byte*>(data), bytes, offset);
        error != 0) {
        fail(std::string("cannot be written: ").append(std::strerror(error)));
        return -1;
    }
    m_size += bytes;
    return static_cast<std::int64_t>(offset);
}

bool SpillFile::read(std::int64_t offset, void* data, std::size_t bytes) const {
    const std::int64_t got =
        readFully(m_file.fd(), static_cast<std::byte*>(data), bytes, static_cast<std::uint64_t>(offset));
    if (got == static_cast<std::int64_t>(bytes))
        return true;
    fail(std::string("cannot be read back: ")
             .append(got < 0 ? std::strerror(static_cast<int>(-got)) : "the file is shorter than written")
             .append("; the plots may show zeros where it failed"));
    return false;
}

void SpillFile::fail(const std::string& why) const {
    if (m_broken.empty())
        m_broken = std::string("the views' spill file in '").append(m_dir).append("' ").append(why);
}

} // namespace la

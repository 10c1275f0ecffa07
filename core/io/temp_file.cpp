// SPDX-License-Identifier: GPL-3.0-or-later
#include "temp_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

namespace la {

namespace {

std::string randomHex() {
    unsigned long long value = 0;
    if (::getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value))
        value ^= static_cast<unsigned long long>(::getpid()) * 0x9E3779B97F4A7C15ULL ^
                 static_cast<unsigned long long>(std::rand());
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", value);
    return text;
}

bool processExists(long pid) {
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

} // namespace

std::string TempFile::freshName() const {
    return (std::filesystem::path(m_dir) /
            ("." + m_finalName + "." + std::to_string(::getpid()) + "." + randomHex() + ".tmp"))
        .string();
}

int TempFile::create(const std::string& dir, const std::string& finalName, mode_t mode) {
    m_dir = dir;
    m_finalName = finalName;
    const int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    if (fd >= 0) {
        m_fd.reset(fd);
        return 0;
    }
    // Only a file system without O_TMPFILE gets the named fallback; other errors are the answer.
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
        return errno;
    for (int attempt = 0; attempt < 8; ++attempt) {
        const std::string path = freshName();
        const int named = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (named >= 0) {
            m_fd.reset(named);
            m_namedPath = path;
            // The umask cannot be read without changing it (racy with other threads): a new
            // file gets the usual 0644.
            ::fchmod(named, mode == 0666 ? 0644 : mode);
            return 0;
        }
        if (errno != EEXIST)
            return errno;
    }
    return EEXIST;
}

int TempFile::publish(const std::string& finalPath) {
    if (!m_namedPath.empty()) {
        if (::rename(m_namedPath.c_str(), finalPath.c_str()) != 0)
            return errno;
        m_namedPath.clear();
        return 0;
    }
    // An O_TMPFILE file gets a name through its /proc link; the name is fresh, so linkat never
    // follows or replaces anything, and the rename then replaces the final name atomically.
    const std::string self = "/proc/self/fd/" + std::to_string(m_fd.get());
    for (int attempt = 0; attempt < 8; ++attempt) {
        const std::string path = freshName();
        int rc = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW);
        if (rc != 0 && errno == ENOENT) // no /proc: AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH
            rc = ::linkat(m_fd.get(), "", AT_FDCWD, path.c_str(), AT_EMPTY_PATH);
        if (rc != 0) {
            if (errno == EEXIST)
                continue;
            return errno;
        }
        if (::rename(path.c_str(), finalPath.c_str()) != 0) {
            const int error = errno;
            ::unlink(path.c_str());
            return error;
        }
        return 0;
    }
    return EEXIST;
}

TempFile::~TempFile() {
    if (!m_namedPath.empty())
        ::unlink(m_namedPath.c_str());
}

void removeStaleTempFiles(const std::string& dir) {
    static const std::regex ours(R"(^\..+\.(\d+)\.[0-9a-f]{16}\.tmp$)");
    static const std::regex older(R"(^\..+\.part-(\d+)$)");
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
        const std::string name = entry.path().filename().string();
        std::smatch match;
        if ((std::regex_match(name, match, ours) || std::regex_match(name, match, older)) &&
            !processExists(std::strtol(match[1].str().c_str(), nullptr, 10)))
            ::unlink(entry.path().c_str());
    }
}

} // namespace la

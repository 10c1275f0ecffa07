// SPDX-License-Identifier: GPL-3.0-or-later
#include "temp_file.h"

#include "background_close.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <utility>

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

bool allOf(std::string_view text, const char* digits) {
    return !text.empty() && text.find_first_not_of(digits) == std::string_view::npos;
}

// The extended attribute markTempFile() sets; its value is the file's own name.
constexpr const char* kTempMark = "user.lookahead.temp";

// The final name and PID in ".NAME.PID.<16 hex>.tmp", or a PID of 0.
std::pair<std::string_view, long> temporaryFileOwner(std::string_view name) {
    if (!name.starts_with('.') || !name.ends_with(".tmp") || name.size() <= 4 + 17)
        return {};
    const std::string_view rest = name.substr(0, name.size() - 4);
    const std::string_view hex = rest.substr(rest.size() - 16);
    const std::string_view head = rest.substr(1, rest.size() - 18);
    const auto dot = head.rfind('.');
    if (rest[rest.size() - 17] != '.' || !allOf(hex, "0123456789abcdef") || dot == std::string_view::npos)
        return {};
    const std::string_view pid = head.substr(dot + 1);
    if (!allOf(pid, "0123456789") || pid.size() >= 10)
        return {};
    return {head.substr(0, dot), std::strtol(std::string(pid).c_str(), nullptr, 10)};
}

// Whether the file `name` in `dirFd` is a regular file of ours carrying our mark under that name.
bool markedAsOurs(int dirFd, const std::string& name) {
    const UniqueFd fd(::openat(dirFd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st {};
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid())
        return false;
    std::string mark(name.size() + 1, '\0');
    const ssize_t length = ::fgetxattr(fd.get(), kTempMark, mark.data(), mark.size());
    return length == static_cast<ssize_t>(name.size()) && mark.compare(0, name.size(), name) == 0;
}

bool processExists(long pid) {
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

} // namespace

std::string TempFile::freshName() const {
    const std::string name =
        "." + m_finalName + "." + std::to_string(::getpid()) + "." + randomHex() + ".tmp";
    return m_at == AT_FDCWD ? (std::filesystem::path(m_dir) / name).string() : name;
}

int TempFile::create(const std::string& dir, const std::string& finalName, mode_t mode, int access) {
    return createAt(AT_FDCWD, dir, finalName, mode, access);
}

int TempFile::createAt(int dirFd, const std::string& dir, const std::string& finalName, mode_t mode,
                       int access) {
    m_at = dirFd;
    m_dir = dir;
    m_finalName = finalName;
    const int fd = ::openat(m_at, m_at == AT_FDCWD ? dir.c_str() : ".", O_TMPFILE | access | O_CLOEXEC, mode);
    if (fd >= 0) {
        m_fd.reset(fd);
        return 0;
    }
    // Only a file system without O_TMPFILE gets the named fallback; other errors are the answer.
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
        return errno;
    for (int attempt = 0; attempt < 8; ++attempt) {
        const std::string path = freshName();
        const int named =
            ::openat(m_at, path.c_str(), access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (named >= 0) {
            m_fd.reset(named);
            m_namedPath = path;
            markTempFile(named, path);
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
        unmarkTempFile(m_fd.get());
        if (::renameat(m_at, m_namedPath.c_str(), m_at, finalPath.c_str()) != 0)
            return errno;
        m_namedPath.clear();
        m_published = true;
        return 0;
    }
    // An O_TMPFILE file gets a name through its /proc link; the name is fresh, so linkat never
    // follows or replaces anything, and the rename then replaces the final name atomically.
    const std::string self = "/proc/self/fd/" + std::to_string(m_fd.get());
    for (int attempt = 0; attempt < 8; ++attempt) {
        const std::string path = freshName();
        int rc = ::linkat(AT_FDCWD, self.c_str(), m_at, path.c_str(), AT_SYMLINK_FOLLOW);
        if (rc != 0 && errno == ENOENT) // no /proc: AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH
            rc = ::linkat(m_fd.get(), "", m_at, path.c_str(), AT_EMPTY_PATH);
        if (rc != 0) {
            if (errno == EEXIST)
                continue;
            return errno;
        }
        if (::renameat(m_at, path.c_str(), m_at, finalPath.c_str()) != 0) {
            const int error = errno;
            ::unlinkat(m_at, path.c_str(), 0);
            return error;
        }
        m_published = true;
        return 0;
    }
    return EEXIST;
}

void TempFile::close() {
    if (m_published)
        m_fd.reset();
    else
        closeInBackground(std::move(m_fd));
}

TempFile::~TempFile() {
    if (!m_namedPath.empty())
        ::unlinkat(m_at, m_namedPath.c_str(), 0);
    close();
}

void markTempFile(int fd, const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    ::fsetxattr(fd, kTempMark, name.data(), name.size(), 0);
}

void unmarkTempFile(int fd) {
    ::fremovexattr(fd, kTempMark);
}

void removeStaleTempFiles(const std::string& dir, const std::string& finalName) {
    const UniqueFd dirFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
        const std::string name = entry.path().filename().string();
        const auto [finalPart, pid] = temporaryFileOwner(name);
        if (pid > 0 && (finalName.empty() || finalPart == finalName) && !processExists(pid) &&
            dirFd.valid() && markedAsOurs(dirFd.get(), name))
            ::unlinkat(dirFd.get(), name.c_str(), 0);
    }
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "held_directory.h"

#include "input_error.h"
#include "io_backend.h"
#include "message_text.h"
#include "protected_symlinks.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <utility>

namespace la {

namespace {

bool writableByOthers(const struct stat& st) {
    return (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
}

// The directories from / down to `dir` (its real path), each one that only root or we own and that
// others cannot write, or a sticky one (others may add to it but not move what is ours): nobody
// else can put another directory where one of them leads. Returns the descriptor of `dir`, or
// throws InputError with `refuse`'s wording.
UniqueFd openTrustedPath(const std::string& dir,
                         const std::function<InputError(const std::string&)>& refuse) {
    char resolved[PATH_MAX];
    if (!::realpath(dir.c_str(), resolved))
        throw refuse(joined({"its directory '", excerpt(dir), "': ", std::strerror(errno)}));
    UniqueFd at(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    std::filesystem::path here = "/";
    const auto check = [&](const struct stat& st) {
        if (st.st_uid != 0 && st.st_uid != ::geteuid())
            throw refuse(
                joined({"'", excerpt(here.string()), "' on its way belongs to user ",
                        std::to_string(st.st_uid), ", who could put another directory in its place"}));
        if (writableByOthers(st) && (st.st_mode & S_ISVTX) == 0)
            throw refuse(joined({"'", excerpt(here.string()),
                                 "' on its way may be written by others (and is not sticky as /tmp is): "
                                 "they could put another directory in its place"}));
    };
    struct stat st {};
    if (!at.valid() || ::fstat(at.get(), &st) != 0)
        throw refuse(std::string("cannot open /: ") + std::strerror(errno));
    check(st);
    for (const auto& part : std::filesystem::path(resolved).relative_path()) {
        here /= part;
        UniqueFd next(::openat(at.get(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!next.valid() || ::fstat(next.get(), &st) != 0)
            throw refuse(joined({"'", excerpt(here.string()), "': ", std::strerror(errno)}));
        check(st);
        at = std::move(next);
    }
    return at;
}

std::string temporaryRoot() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp == '/' ? tmp : "/tmp";
}

} // namespace

HeldDirectory HeldDirectory::open(const std::string& path, const std::string& role) {
    const auto refuse = [&](const std::string& why) {
        return InputError(joined({role, " '", excerpt(path), "': ", why}));
    };
    if (path.empty())
        throw InputError(role + " needs a directory");
    if (const std::string planted = foreignSymlink(path); !planted.empty())
        throw refuse(planted);
    const std::filesystem::path given(path);
    std::filesystem::path name = given.filename();
    std::filesystem::path parent = given.parent_path();
    if (name.empty()) { // "dir/"
        name = parent.filename();
        parent = parent.parent_path();
    }
    if (name.empty() || name == "." || name == "..")
        throw refuse("give the directory by its own name (not '.', '..' or /)");
    UniqueFd parentFd = openTrustedPath(parent.empty() ? "." : parent.string(), refuse);
    HeldDirectory held;
    held.m_fd.reset(::openat(parentFd.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!held.m_fd.valid()) {
        const int error = errno;
        struct stat link {};
        if (::fstatat(parentFd.get(), name.c_str(), &link, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(link.st_mode))
            throw refuse("it is a symbolic link: give the directory itself");
        throw refuse(error == ENOTDIR ? std::string("it is not a directory") : std::strerror(error));
    }
    struct stat st {};
    if (::fstat(held.m_fd.get(), &st) != 0)
        throw refuse(std::strerror(errno));
    if (st.st_uid != ::geteuid())
        throw refuse(joined({"it belongs to user ", std::to_string(st.st_uid),
                             ", not to this one: give a directory of your own"}));
    if (writableByOthers(st))
        throw refuse("others may write in it (its mode lets the group or everyone write): give a directory "
                     "only you can write (chmod go-w)");
    held.m_path = path;
    held.m_parent = std::move(parentFd);
    held.m_name = name.string();
    return held;
}

HeldDirectory HeldDirectory::makePrivate(const std::string& prefix) {
    std::string pattern = temporaryRoot() + "/" + prefix + "XXXXXX";
    if (!::mkdtemp(pattern.data()))
        throw IoError(joined({"cannot create a private directory in '", excerpt(temporaryRoot()),
                              "': ", std::strerror(errno)}));
    try {
        HeldDirectory held = open(pattern, "the private directory");
        held.m_private = true;
        return held;
    } catch (const InputError& error) {
        ::rmdir(pattern.c_str());
        throw IoError(error.what());
    }
}

HeldDirectory& HeldDirectory::operator=(HeldDirectory&& other) noexcept {
    if (this != &other) {
        removePrivate();
        m_fd = std::move(other.m_fd);
        m_path = std::move(other.m_path);
        m_private = std::exchange(other.m_private, false);
        m_parent = std::move(other.m_parent);
        m_name = std::move(other.m_name);
        m_created = std::move(other.m_created);
    }
    return *this;
}

HeldDirectory::~HeldDirectory() {
    removePrivate();
}

void HeldDirectory::removePrivate() {
    if (!m_private || !m_fd.valid() || !m_parent.valid())
        return;
    for (const std::string& name : m_created)
        ::unlinkat(m_fd.get(), name.c_str(), 0);
    ::unlinkat(m_parent.get(), m_name.c_str(), AT_REMOVEDIR);
    m_private = false;
}

std::string HeldDirectory::filePath(const std::string& name) const {
    return (std::filesystem::path(m_path) / name).string();
}

bool HeldDirectory::empty() const {
    const int copy = ::openat(m_fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* dir = copy >= 0 ? ::fdopendir(copy) : nullptr;
    if (!dir) {
        if (copy >= 0)
            ::close(copy);
        return false;
    }
    bool none = true;
    while (const dirent* entry = ::readdir(dir))
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
            none = false;
    ::closedir(dir);
    return none;
}

UniqueFd HeldDirectory::createFile(const std::string& name, int access) const {
    UniqueFd fd(::openat(m_fd.get(), name.c_str(), access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd.valid())
        throw IoError(joined({"cannot create '", excerpt(filePath(name)), "': ", std::strerror(errno)}));
    m_created.push_back(name);
    return fd;
}

} // namespace la

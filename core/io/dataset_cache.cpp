// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset_cache.h"

#include "files/unique_fd.h"
#include "page_format.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

namespace la {

namespace {

constexpr std::string_view kSuffix = ".heap";

// A regular file of ours (not a link, owned by us) starting with our page header: only such files
// may be deleted, whatever else someone put in the directory.
bool isOurDatasetFile(int dirFd, const char* name, std::uint64_t* allocated) {
    const std::string_view view(name);
    if (view.size() <= kSuffix.size() || view.substr(view.size() - kSuffix.size()) != kSuffix)
        return false;
    const UniqueFd fd(::openat(dirFd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!fd.valid())
        return false;
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid())
        return false;
    PageHeader header{};
    if (::pread(fd.get(), &header, sizeof header, 0) != static_cast<ssize_t>(sizeof header) ||
        header.magic != kPageMagic)
        return false;
    if (allocated)
        *allocated = static_cast<std::uint64_t>(st.st_blocks) * 512;
    return true;
}

} // namespace

DatasetCache listDatasetCache(const std::string& dir, std::string* error) {
    DatasetCache cache;
    cache.dir = dir;
    const UniqueFd dirFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dirFd.valid()) {
        if (errno != ENOENT && error)
            *error = "cannot read the dataset directory '" + dir + "': " + std::strerror(errno);
        return cache;
    }
    DIR* stream = ::fdopendir(::dup(dirFd.get()));
    if (!stream) {
        if (error)
            *error = "cannot read the dataset directory '" + dir + "': " + std::strerror(errno);
        return cache;
    }
    while (const dirent* entry = ::readdir(stream)) {
        std::uint64_t bytes = 0;
        if (isOurDatasetFile(dirFd.get(), entry->d_name, &bytes)) {
            cache.files.emplace_back(entry->d_name);
            cache.bytes += bytes;
        }
    }
    ::closedir(stream);
    return cache;
}

std::uint64_t clearDatasetCache(const DatasetCache& cache, std::string* error) {
    const UniqueFd dirFd(::open(cache.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dirFd.valid())
        return 0;
    std::uint64_t freed = 0;
    for (const std::string& name : cache.files) {
        std::uint64_t bytes = 0;
        if (!isOurDatasetFile(dirFd.get(), name.c_str(), &bytes))
            continue;
        if (::unlinkat(dirFd.get(), name.c_str(), 0) != 0) {
            if (error && error->empty())
                *error = "cannot delete '" + cache.dir + "/" + name + "': " + std::strerror(errno);
            continue;
        }
        freed += bytes;
    }
    return freed;
}

} // namespace la

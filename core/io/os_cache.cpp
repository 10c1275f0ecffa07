// SPDX-License-Identifier: GPL-3.0-or-later
#include "os_cache.h"

#include "files/input_file.h"
#include "files/unique_fd.h"
#include "io_backend.h"
#include "scan_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace la {

namespace {

// Mapped a window at a time so a huge file needs neither a huge mapping nor a huge vector.
constexpr std::uint64_t kWindowBytes = 1ULL << 30;

UniqueFd openOrThrow(const std::string& path) {
    const int fd = openRegularFile(path, "file");
    if (fd < 0)
        throw IoError("cannot open '" + path + "' to check its page cache: " + std::strerror(-fd));
    return UniqueFd(fd);
}

} // namespace

void evictFromOsCache(const std::string& path) {
    const UniqueFd file = openOrThrow(path);
    if (::fdatasync(file.get()) != 0)
        throw IoError("cannot flush '" + path +
                      "' before evicting it from the page cache: " + std::strerror(errno));
    if (const int error = ::posix_fadvise(file.get(), 0, 0, POSIX_FADV_DONTNEED); error != 0)
        throw IoError("cannot evict '" + path + "' from the page cache: " + std::strerror(error));
}

double residentFraction(const std::string& path) {
    const UniqueFd file = openOrThrow(path);
    struct stat st {};
    if (::fstat(file.get(), &st) != 0 || st.st_size <= 0)
        return 0.0;
    const auto bytes = static_cast<std::uint64_t>(st.st_size);
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    std::uint64_t resident = 0, pages = 0;
    std::vector<unsigned char> vec;
    for (std::uint64_t offset = 0; offset < bytes; offset += kWindowBytes) {
        const std::uint64_t length = std::min(kWindowBytes, bytes - offset);
        void* map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, file.get(), static_cast<off_t>(offset));
        if (map == MAP_FAILED)
            throw IoError("cannot map '" + path + "' to check its page cache: " + std::strerror(errno));
        vec.resize((length + page - 1) / page);
        const int rc = ::mincore(map, length, vec.data());
        const int error = errno;
        ::munmap(map, length);
        if (rc != 0)
            throw IoError("mincore on '" + path + "' failed: " + std::strerror(error));
        pages += vec.size();
        resident += static_cast<std::uint64_t>(
            std::count_if(vec.begin(), vec.end(), [](unsigned char v) { return v & 1; }));
    }
    return pages ? static_cast<double>(resident) / static_cast<double>(pages) : 0.0;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_extents.h"

#include "checked_math.h"
#include "files/input_file.h"
#include "files/unique_fd.h"
#include "input_error.h"

#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstring>

namespace la {

namespace {
constexpr std::uint32_t kExtentsPerCall = 256;
constexpr std::uint32_t kUnplaced = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_ENCODED |
                                    FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL |
                                    FIEMAP_EXTENT_NOT_ALIGNED;
} // namespace

std::string readFileExtents(const std::string& path, FileExtents& out) {
    out = FileExtents{};
    int opened = -1;
    try {
        opened = openRegularFile(path, "file of interest");
    } catch (const InputError& error) {
        return error.what();
    }
    if (opened < 0)
        return "cannot open '" + path + "': " + std::strerror(-opened);
    const UniqueFd fd(opened);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        return "cannot stat '" + path + "': " + std::strerror(errno);
    out.major = ::major(st.st_dev);
    out.minor = ::minor(st.st_dev);
    out.inode = st.st_ino;
    out.size = static_cast<std::uint64_t>(st.st_size);

    std::vector<unsigned char> buffer(sizeof(fiemap) + kExtentsPerCall * sizeof(fiemap_extent));
    std::uint64_t from = 0;
    for (;;) {
        std::memset(buffer.data(), 0, buffer.size());
        auto* map = reinterpret_cast<fiemap*>(buffer.data());
        map->fm_start = from;
        map->fm_length = FIEMAP_MAX_OFFSET - from;
        map->fm_flags = FIEMAP_FLAG_SYNC;
        map->fm_extent_count = kExtentsPerCall;
        if (::ioctl(fd.get(), FS_IOC_FIEMAP, map) != 0)
            return errno == EOPNOTSUPP || errno == ENOTTY
                       ? "the file system of '" + path + "' does not say where a file's blocks are (FIEMAP)"
                       : "cannot map the blocks of '" + path + "': " + std::strerror(errno);
        if (map->fm_mapped_extents == 0)
            return {};
        bool last = false;
        for (std::uint32_t i = 0; i < map->fm_mapped_extents; ++i) {
            const fiemap_extent& e = map->fm_extents[i];
            last = (e.fe_flags & FIEMAP_EXTENT_LAST) != 0;
            std::uint64_t end = 0;
            if (!checkedAdd<std::uint64_t>(e.fe_logical, e.fe_length, end))
                return "the file system gave '" + path + "' an extent past 2^64 bytes";
            from = end;
            if (e.fe_flags & kUnplaced)
                out.unplaced += e.fe_length;
            else
                out.extents.push_back({e.fe_logical, e.fe_physical, e.fe_length});
        }
        if (last)
            return {};
    }
}

} // namespace la

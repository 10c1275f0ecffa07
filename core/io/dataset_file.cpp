// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset_file.h"

#include "block_size.h"
#include "input_error.h"
#include "io_backend.h"
#include "page_format.h"
#include "scan_file.h"
#include "unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <vector>

namespace la {

namespace {

constexpr std::uint64_t kChunkBlocks = 256; // 2 MiB per write
constexpr std::uint64_t kSampledPages = 16;
// Left free on the file system after writing, so a dataset never fills a disk to the last byte.
constexpr std::uint64_t kSpareBytes = 64ULL << 20;

std::string mib(std::uint64_t bytes) {
    return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

// Deletes the temporary file unless the write completed (cancel, error, exception).
class TempFile {
public:
    explicit TempFile(std::string path) : m_path(std::move(path)) {}
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() {
        if (!m_kept)
            ::unlink(m_path.c_str());
    }
    const std::string& path() const { return m_path; }
    void keep() { m_kept = true; }

private:
    std::string m_path;
    bool m_kept = false;
};

void checkFreeSpace(const std::string& dir, const std::string& name, std::uint64_t bytes) {
    struct statvfs fs {};
    if (::statvfs(dir.c_str(), &fs) != 0)
        throw InputError("cannot check free space in '" + dir + "': " + std::strerror(errno));
    const std::uint64_t available = std::uint64_t{fs.f_bavail} * fs.f_frsize;
    if (available < bytes + kSpareBytes)
        throw InputError("not enough free space in '" + dir + "' for dataset file " + name + ": it needs " +
                         mib(bytes) + " (plus " + mib(kSpareBytes) + " to spare), " + mib(available) +
                         " are available; free some space, use a smaller --scale, or choose --cache-dir");
}

void writeAll(int fd, const std::byte* data, std::uint64_t length, std::uint64_t offset,
              const std::string& path) {
    while (length > 0) {
        const ssize_t n = ::pwrite(fd, data, length, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw IoError("cannot write dataset file '" + path + "': " + std::strerror(n < 0 ? errno : EIO));
        data += n;
        length -= static_cast<std::uint64_t>(n);
        offset += static_cast<std::uint64_t>(n);
    }
}

// Writes every page; returns false if cancelled.
bool writePages(int fd, const std::string& path, const std::string& stage, std::uint64_t datasetId,
                std::uint64_t blocks, const RunCallbacks& callbacks) {
    std::vector<std::byte> chunk(kChunkBlocks * kBlockSize);
    const std::uint64_t total = blocks * kBlockSize;
    for (std::uint64_t first = 0; first < blocks; first += kChunkBlocks) {
        if (callbacks.cancel && callbacks.cancel->load(std::memory_order_relaxed))
            return false;
        const std::uint64_t n = std::min(kChunkBlocks, blocks - first);
        for (std::uint64_t i = 0; i < n; ++i)
            fillPage(chunk.data() + i * kBlockSize, datasetId, static_cast<std::uint32_t>(first + i));
        writeAll(fd, chunk.data(), n * kBlockSize, first * kBlockSize, path);
        if (callbacks.preparing)
            callbacks.preparing(stage, (first + n) * kBlockSize, total);
    }
    return true;
}

} // namespace

std::string defaultDatasetDir() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    std::filesystem::path base;
    if (xdg != nullptr && xdg[0] == '/') {
        base = xdg;
    } else {
        const char* home = std::getenv("HOME");
        base = std::filesystem::path(home != nullptr && home[0] != '\0' ? home : "/tmp") / ".cache";
    }
    return (base / "lookahead" / "datasets").string();
}

std::string datasetFileKey(const std::string& name, double scale, std::uint64_t seed, std::uint64_t blocks) {
    std::ostringstream key;
    key << name << '-' << scale << '-' << seed << '-' << blocks;
    std::string text = key.str();
    for (char& c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_')
            c = '_';
    return text;
}

bool isValidDatasetFile(const std::string& path, std::uint64_t datasetId, std::uint64_t blocks) {
    const int fd = openForReading(path, false);
    if (fd < 0)
        return false;
    const UniqueFd file(fd);
    struct stat st {};
    const std::uint64_t bytes = blocks * kBlockSize;
    // st_blocks counts 512-byte units actually allocated: fewer than the size means holes.
    if (::fstat(file.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
        static_cast<std::uint64_t>(st.st_size) != bytes ||
        static_cast<std::uint64_t>(st.st_blocks) * 512 < bytes)
        return false;
    std::vector<std::byte> page(kBlockSize);
    const std::uint64_t samples = std::min(kSampledPages, blocks);
    for (std::uint64_t i = 0; i < samples; ++i) {
        const std::uint64_t block = samples > 1 ? i * (blocks - 1) / (samples - 1) : 0;
        if (::pread(file.get(), page.data(), kBlockSize, static_cast<off_t>(block * kBlockSize)) !=
                static_cast<ssize_t>(kBlockSize) ||
            !checkPage(page.data(), datasetId, static_cast<std::uint32_t>(block)).empty())
            return false;
    }
    return true;
}

std::optional<DatasetFile> materializeDataset(const std::string& dir, const std::string& key,
                                              std::uint64_t blocks, const RunCallbacks& callbacks) {
    const std::string name = key + ".heap";
    const std::string path = (std::filesystem::path(dir) / name).string();
    const DatasetFile result{path, datasetIdFor(key), blocks};
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error)
        throw InputError("cannot create the dataset directory '" + dir + "': " + error.message() +
                         " (choose another with --cache-dir)");
    if (isValidDatasetFile(path, result.datasetId, blocks))
        return result;

    // An incomplete or damaged file of ours: its space counts as free for the new one.
    ::unlink(path.c_str());
    const std::uint64_t bytes = blocks * kBlockSize;
    checkFreeSpace(dir, name, bytes);
    TempFile temp(
        (std::filesystem::path(dir) / ("." + name + ".part-" + std::to_string(::getpid()))).string());
    const UniqueFd file(::open(temp.path().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!file.valid())
        throw InputError("cannot create a dataset file in '" + dir + "': " + std::strerror(errno) +
                         " (choose another directory with --cache-dir)");
    // Reserving the space first turns "disk full" into an error now rather than half-way through.
    if (const int rc = ::posix_fallocate(file.get(), 0, static_cast<off_t>(bytes)); rc == ENOSPC)
        throw InputError("not enough free space in '" + dir + "' for dataset file " + name + " (" +
                         mib(bytes) + ")");
    if (!writePages(file.get(), temp.path(), "writing dataset file " + name, result.datasetId, blocks,
                    callbacks))
        return std::nullopt;
    if (::fsync(file.get()) != 0)
        throw IoError("cannot write dataset file '" + temp.path() + "': " + std::strerror(errno));
    if (::rename(temp.path().c_str(), path.c_str()) != 0)
        throw IoError("cannot rename '" + temp.path() + "' to '" + path + "': " + std::strerror(errno));
    temp.keep();
    return result;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset_file.h"

#include "block_size.h"
#include "files/input_file.h"
#include "files/temp_file.h"
#include "files/unique_fd.h"
#include "input_error.h"
#include "io_backend.h"
#include "message_text.h"
#include "page_format.h"
#include "scan_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
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

void checkFreeSpace(const std::string& dir, const std::string& name, std::uint64_t bytes) {
    struct statvfs fs {};
    if (::statvfs(dir.c_str(), &fs) != 0)
        throw InputError("cannot check free space in '" + dir + "': " + std::strerror(errno));
    const std::uint64_t available = std::uint64_t{fs.f_bavail} * fs.f_frsize;
    if (available < bytes + kSpareBytes)
        throw InputError("not enough free space in '" + dir + "' for dataset file " + name + ": it needs " +
                         mebibytes(bytes) + " (plus " + mebibytes(kSpareBytes) + " to spare), " +
                         mebibytes(available) +
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

std::string modeText(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

// A directory others could write to would let them swap or plant files we then trust or
// overwrite. Every directory on the way must belong to us or root, and be writable by nobody
// else unless it is sticky (as /tmp is: there nobody can rename another's entries).
void checkPrivatePath(const std::filesystem::path& dir) {
    const uid_t me = ::geteuid();
    std::filesystem::path walked;
    for (const auto& part : dir) {
        walked /= part;
        struct stat st {};
        if (::lstat(walked.c_str(), &st) != 0)
            throw InputError("cannot use the dataset directory '" + dir.string() + "': " + walked.string() +
                             ": " + std::strerror(errno));
        const bool last = walked == dir;
        const auto refuse = [&](const std::string& why) {
            return InputError("refusing to use the dataset directory '" + dir.string() +
                              "': " + walked.string() + " " + why +
                              "; other users could replace the files in it. Use a directory of your own "
                              "(--cache-dir DIR, mode 0700)");
        };
        if (S_ISLNK(st.st_mode))
            continue; // canonical() resolved it; its target is checked as part of the path
        if (st.st_uid != me && (last || st.st_uid != 0))
            throw refuse("belongs to user " + std::to_string(st.st_uid));
        const bool othersWrite = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
        if (othersWrite && (last || (st.st_mode & S_ISVTX) == 0))
            throw refuse("is writable by group or others (mode " + modeText(st.st_mode) + ")");
    }
}

// What stands at a dataset file's name before we write it: nothing, a file we may replace (ours,
// or never written: all zeros), or something we must not touch (InputError).
void checkReplaceable(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0)
        return;
    const auto inTheWay = [&](const std::string& what) {
        return InputError("cannot write dataset file '" + path + "': " + what +
                          " is in its place; remove it or choose another --cache-dir");
    };
    if (S_ISDIR(st.st_mode))
        throw inTheWay("a directory");
    if (!S_ISREG(st.st_mode))
        throw inTheWay("something that is not a regular file");
    std::vector<std::byte> page(kBlockSize);
    const int fd = openRegularFile(path, "dataset file");
    const std::int64_t got = fd >= 0 ? readFully(fd, page.data(), kBlockSize, 0) : -1;
    if (fd >= 0)
        ::close(fd);
    PageHeader header{};
    std::memcpy(&header, page.data(), sizeof header);
    const bool zeros = std::all_of(page.begin(), page.end(), [](std::byte b) { return b == std::byte{0}; });
    if (got < 0 || (header.magic != kPageMagic && !zeros))
        throw inTheWay("a file that is not a Lookahead dataset file");
}

} // namespace

void preparePrivateDir(const std::string& dir) {
    std::filesystem::path path = std::filesystem::absolute(dir);
    std::vector<std::filesystem::path> missing;
    for (auto p = path; !p.empty() && !std::filesystem::exists(p); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path())
            break;
    }
    std::reverse(missing.begin(), missing.end()); // outermost first
    for (const auto& missingDir : missing)
        if (::mkdir(missingDir.c_str(), 0700) != 0 && errno != EEXIST)
            throw InputError("cannot create the dataset directory '" + dir + "': " + std::strerror(errno) +
                             " (choose another with --cache-dir)");
    std::error_code error;
    const auto real = std::filesystem::canonical(path, error);
    if (error)
        throw InputError("cannot use the dataset directory '" + dir + "': " + error.message());
    if (!std::filesystem::is_directory(real))
        throw InputError("cannot use the dataset directory '" + dir + "': it is not a directory");
    checkPrivatePath(real);
}

std::string defaultDatasetDir() {
    const auto absolute = [](const char* name) -> const char* {
        const char* value = std::getenv(name);
        return value != nullptr && value[0] == '/' ? value : nullptr;
    };
    // Never a shared fallback such as /tmp/.cache: anyone could plant files there.
    std::filesystem::path base;
    if (const char* xdg = absolute("XDG_CACHE_HOME"))
        base = xdg;
    else if (const char* home = absolute("HOME"))
        base = std::filesystem::path(home) / ".cache";
    else if (const char* runtime = absolute("XDG_RUNTIME_DIR"))
        base = runtime;
    else
        throw InputError("no private directory for dataset files: HOME, XDG_CACHE_HOME and XDG_RUNTIME_DIR "
                         "are all unset; set one of them or pass --cache-dir DIR");
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
    struct stat link {};
    if (::lstat(path.c_str(), &link) != 0 || !S_ISREG(link.st_mode))
        return false;
    const int fd = openRegularFile(path, "dataset file");
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
    preparePrivateDir(dir);
    removeStaleTempFiles(dir);
    if (isValidDatasetFile(path, result.datasetId, blocks))
        return result;

    // An incomplete or damaged file of ours: its space counts as free for the new one.
    checkReplaceable(path);
    ::unlink(path.c_str());
    const std::uint64_t bytes = blocks * kBlockSize;
    checkFreeSpace(dir, name, bytes);
    TempFile temp;
    if (const int error = temp.create(dir, name, 0644); error != 0)
        throw InputError("cannot create dataset file '" + path + "': " + std::strerror(error) +
                         " (choose another directory with --cache-dir)");
    // Reserving the space first turns "disk full" into an error now rather than half-way through.
    const int rc = ::posix_fallocate(temp.fd(), 0, static_cast<off_t>(bytes));
    if (rc == ENOSPC)
        throw InputError("not enough free space in '" + dir + "' for dataset file " + name + " (" +
                         mebibytes(bytes) + ")");
    if (rc == EFBIG)
        throw InputError("dataset file '" + path + "' (" + mebibytes(bytes) +
                         ") is over this process's file size limit (ulimit -f); raise it or use a smaller "
                         "--scale");
    if (!writePages(temp.fd(), path, "writing dataset file " + name, result.datasetId, blocks, callbacks))
        return std::nullopt;
    if (::fsync(temp.fd()) != 0)
        throw IoError("cannot write dataset file '" + path + "': " + std::strerror(errno));
    if (const int error = temp.publish(path); error != 0)
        throw IoError("cannot write dataset file '" + path + "': " + std::strerror(error));
    return result;
}

} // namespace la

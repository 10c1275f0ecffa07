// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/unique_fd.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace la {

// A file to scan as a relation of 8 kB blocks.
struct ScanFile {
    std::string path;
    std::uint64_t bytes = 0;
    std::uint64_t blocks = 0;       // whole 8 kB blocks; a partial last block is never read
    std::uint64_t partialBytes = 0; // bytes past the last whole block
    std::uint64_t holeBytes = 0;    // bytes not allocated on disk (a sparse file's holes)
    UniqueFd fd;                    // open for reading, through the page cache
};

// Opens `path` as a file to scan: a readable regular file (files/input_file.h) of at least one block.
// Throws InputError naming the file and what is wrong with it.
ScanFile inspectScanFile(const std::string& path);

// pread until `length` bytes are in or the file ends; returns the bytes read, or -errno.
std::int64_t readFully(int fd, std::byte* buffer, std::uint64_t length, std::uint64_t offset);
// pwrite until all `length` bytes are out; returns 0, or the errno of the failed write (EIO when the
// file system took nothing).
int writeFully(int fd, const std::byte* data, std::uint64_t length, std::uint64_t offset);

} // namespace la

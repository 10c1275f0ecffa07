// SPDX-License-Identifier: GPL-3.0-or-later
#include "scan_file.h"

#include "block_size.h"
#include "files/input_file.h"
#include "input_error.h"
#include "message_text.h"

#include <unistd.h>

#include <cerrno>

namespace la {

namespace {

constexpr std::string_view kScanAdvice =
    "choose a readable regular file of at least one 8 kB block, such as a relation's segment file";

InputError fileError(const std::string& path, const std::string& what) {
    return InputError(joined({"cannot scan '", path, "': ", what, "; ", kScanAdvice}));
}

} // namespace

std::int64_t readFully(int fd, std::byte* buffer, std::uint64_t length, std::uint64_t offset) {
    std::uint64_t done = 0;
    while (done < length) {
        const ssize_t n = ::pread(fd, buffer + done, length - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            break;
        done += static_cast<std::uint64_t>(n);
    }
    return static_cast<std::int64_t>(done);
}

int writeFully(int fd, const std::byte* data, std::uint64_t length, std::uint64_t offset) {
    for (std::uint64_t done = 0; done < length;) {
        const ssize_t n = ::pwrite(fd, data + done, length - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        done += static_cast<std::uint64_t>(n);
    }
    return 0;
}

ScanFile inspectScanFile(const std::string& path) {
    if (path.empty())
        throw InputError("no file to scan was given");
    InputFile input = openInputFile(path, "file to scan", kScanAdvice);
    ScanFile scan;
    scan.path = path;
    scan.bytes = input.bytes;
    scan.blocks = scan.bytes / kBlockSize;
    scan.partialBytes = scan.bytes % kBlockSize;
    scan.holeBytes = input.allocated < scan.bytes ? scan.bytes - input.allocated : 0;
    scan.fd = std::move(input.fd);
    if (scan.bytes == 0)
        throw fileError(path, "the file is empty");
    if (scan.blocks == 0)
        throw fileError(path,
                        "the file is shorter than one 8 kB block (" + std::to_string(scan.bytes) + " bytes)");
    return scan;
}

} // namespace la

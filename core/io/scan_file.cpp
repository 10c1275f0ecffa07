// SPDX-License-Identifier: GPL-3.0-or-later
#include "scan_file.h"

#include "block_size.h"
#include "input_error.h"
#include "unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace la {

namespace {

std::string notRegular(mode_t mode) {
    if (S_ISDIR(mode))
        return "is a directory";
    if (S_ISFIFO(mode))
        return "is a FIFO (named pipe)";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "is a device";
    if (S_ISSOCK(mode))
        return "is a socket";
    return {};
}

InputError fileError(const std::string& path, const std::string& what) {
    std::string text = "cannot scan '";
    text += path;
    text += "': ";
    text += what;
    text += "; choose a readable regular file of at least one 8 kB block, such as a relation's segment file";
    return InputError(text);
}

} // namespace

int openForReading(const std::string& path, bool direct) {
    // O_NONBLOCK so that a path swapped for a FIFO since it was checked cannot hang the open; it
    // is cleared at once because io_uring would answer reads on a non-blocking file with EAGAIN.
    const int fd =
        ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (direct ? O_DIRECT : 0));
    if (fd < 0)
        return -errno;
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int error = errno;
        ::close(fd);
        return -error;
    }
    return fd;
}

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
    struct stat st {};
    if (path.empty())
        throw InputError("no file to scan was given");
    if (::stat(path.c_str(), &st) != 0)
        throw fileError(path, std::strerror(errno));
    if (const std::string what = notRegular(st.st_mode); !what.empty())
        throw fileError(path, what + ", not a regular file");
    const int fd = openForReading(path, false);
    if (fd < 0)
        throw fileError(path, std::strerror(-fd));
    const UniqueFd file(fd);
    if (::fstat(file.get(), &st) != 0)
        throw fileError(path, std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw fileError(path, notRegular(st.st_mode) + ", not a regular file");
    ScanFile scan;
    scan.path = path;
    scan.bytes = static_cast<std::uint64_t>(st.st_size);
    scan.blocks = scan.bytes / kBlockSize;
    scan.partialBytes = scan.bytes % kBlockSize;
    // st_blocks counts 512-byte units actually allocated.
    const auto allocated = static_cast<std::uint64_t>(st.st_blocks) * 512;
    scan.holeBytes = allocated < scan.bytes ? scan.bytes - allocated : 0;
    if (scan.bytes == 0)
        throw fileError(path, "the file is empty");
    if (scan.blocks == 0)
        throw fileError(path,
                        "the file is shorter than one 8 kB block (" + std::to_string(scan.bytes) + " bytes)");
    return scan;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
// A small reader for the capture tests (tst_capture), so that they need no interpreter:
//   lookahead_test_reader pread|read|readv FILE COUNT [PROCESSES]
// reads COUNT 8 kB blocks of FILE from its start, each with one pread64, read, or readv call, shared
// among PROCESSES processes (default 1) forked one after another, each gone once it read its share:
// a tracer that follows children sees that many processes start and end. read and readv reach
// their share's first block with an lseek; pread starts again at block 0 at the end of the file, so
// COUNT may exceed its blocks. Exits 1 on a short or failed read.
#include <fcntl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace {

constexpr off_t kBlock = 8192;

bool readBlocks(const char* mode, const char* path, long first, long count) {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    static char block[kBlock];
    const bool positional = std::strcmp(mode, "pread") == 0;
    const off_t blocks = ::lseek(fd, 0, SEEK_END) / kBlock;
    if (blocks <= 0)
        return false;
    if (!positional && ::lseek(fd, first * kBlock, SEEK_SET) != first * kBlock)
        return false;
    for (long i = first; i < first + count; ++i) {
        ssize_t n = -1;
        if (positional) {
            n = ::pread(fd, block, sizeof block, (i % blocks) * kBlock);
        } else if (std::strcmp(mode, "read") == 0) {
            n = ::read(fd, block, sizeof block);
        } else if (std::strcmp(mode, "readv") == 0) {
            iovec vector{block, sizeof block};
            n = ::readv(fd, &vector, 1);
        }
        if (n != static_cast<ssize_t>(sizeof block))
            return false;
    }
    return ::close(fd) == 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5)
        return 2;
    const long count = std::strtol(argv[3], nullptr, 10);
    const long processes = argc == 5 ? std::strtol(argv[4], nullptr, 10) : 1;
    if (count < 0 || processes < 1 || count % processes != 0)
        return 2;
    const long share = count / processes;
    if (processes == 1)
        return readBlocks(argv[1], argv[2], 0, count) ? 0 : 1;
    for (long p = 0; p < processes; ++p) {
        const pid_t child = ::fork();
        if (child == 0)
            ::_exit(readBlocks(argv[1], argv[2], p * share, share) ? 0 : 1);
        int status = 0;
        if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            return 1;
    }
    return 0;
}

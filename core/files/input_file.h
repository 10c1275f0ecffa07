// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "unique_fd.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace la {

// A file a user gave us, open for reading: checked to be a regular file on the descriptor itself.
struct InputFile {
    UniqueFd fd;
    std::uint64_t bytes = 0;     // its size when it was opened
    std::uint64_t allocated = 0; // bytes its blocks take on disk (a sparse file's are fewer)
};

// The one way every input (trace, EXPLAIN output, session, device profile, block list, sweep spec,
// relation file, file to scan, capture's --files) is opened. What is not a regular file is refused,
// never read: its type is checked with stat() first, so that a device is not even opened (an open
// can have effects: a watchdog starts, a tape rewinds), and again with fstat() on the descriptor, so
// that a path swapped for a FIFO in between is caught too. The open is O_NONBLOCK, so that even then
// it returns at once (a FIFO's open waits for a writer); the flag is cleared once the file is known
// to be regular (io_uring would answer EAGAIN on it). `extraFlags` adds to O_RDONLY (O_DIRECT).
//
// Throws InputError, one line: `what` (the input as the user knows it: "trace", "--blocks"), the
// path, what is wrong ("it is a FIFO (named pipe), not a regular file") and then `advice`, if any.
InputFile openInputFile(const std::string& path, std::string_view what, std::string_view advice = {},
                        int extraFlags = 0);

// The same open and checks, for a file opened again after openInputFile() accepted it (real I/O
// opens it with O_DIRECT): the descriptor, or -errno if a call fails, which the caller words (EINVAL
// from O_DIRECT is a fallback, not an error). What is no longer a regular file throws InputError.
int openRegularFile(const std::string& path, std::string_view what, int extraFlags = 0);

// What the stat mode `mode` is, when it is not a regular file ("a FIFO (named pipe)"); empty for one.
std::string notRegularFile(unsigned mode);

} // namespace la

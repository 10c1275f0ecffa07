// SPDX-License-Identifier: GPL-3.0-or-later
#include "input_file.h"

#include "input_error.h"
#include "message_text.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace la {

namespace {

InputError refusal(const std::string& path, std::string_view what, std::string_view why,
                   std::string_view advice) {
    return InputError(
        joined({what, " '", excerpt(path, 200), "': ", why, advice.empty() ? "" : "; ", advice}));
}

// The descriptor, or -errno; fills `st` from the descriptor. Throws for what is not a regular file.
int openChecked(const std::string& path, std::string_view what, std::string_view advice, int extraFlags,
                struct stat& st) {
    const auto refuseType = [&](unsigned mode) {
        return refusal(path, what, joined({"it is ", notRegularFile(mode), ", not a regular file"}), advice);
    };
    if (::stat(path.c_str(), &st) != 0)
        return -errno;
    if (!S_ISREG(st.st_mode))
        throw refuseType(st.st_mode);
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | extraFlags));
    if (!fd.valid())
        return -errno;
    if (::fstat(fd.get(), &st) != 0)
        return -errno;
    if (!S_ISREG(st.st_mode))
        throw refuseType(st.st_mode);
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
        return -errno;
    return fd.release();
}

} // namespace

std::string notRegularFile(unsigned mode) {
    if (S_ISREG(mode))
        return {};
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a file of a kind Lookahead reads";
}

InputFile openInputFile(const std::string& path, std::string_view what, std::string_view advice,
                        int extraFlags) {
    if (path.empty())
        throw InputError(joined({what, ": no file was given", advice.empty() ? "" : "; ", advice}));
    struct stat st {};
    const int fd = openChecked(path, what, advice, extraFlags, st);
    if (fd < 0)
        throw refusal(path, what, joined({"cannot open it (", std::strerror(-fd), ")"}), advice);
    InputFile file;
    file.fd.reset(fd);
    file.bytes = static_cast<std::uint64_t>(st.st_size);
    // st_blocks counts 512-byte units.
    file.allocated = static_cast<std::uint64_t>(st.st_blocks) * 512;
    return file;
}

int openRegularFile(const std::string& path, std::string_view what, int extraFlags) {
    struct stat st {};
    return openChecked(path, what, {}, extraFlags, st);
}

} // namespace la

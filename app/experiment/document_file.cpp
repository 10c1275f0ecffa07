// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/document_file.h"

#include "input_error.h"
#include "io/unique_fd.h"
#include "message_text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace la {

std::string readDocumentFile(const std::string& path, const std::string& what, std::uint64_t cap,
                             const std::string& advice) {
    const auto refuse = [&](const std::string& why) {
        return InputError(joined({what, " ", excerpt(path, 200), ": ", why, "; ", advice}));
    };
    // O_NONBLOCK: the open of a FIFO nobody writes to returns at once, and fstat then refuses it.
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    struct stat st {};
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0)
        throw refuse(joined({"cannot read it (", std::strerror(errno), ")"}));
    if (!S_ISREG(st.st_mode))
        throw refuse(S_ISDIR(st.st_mode)    ? "it is a directory"
                     : S_ISFIFO(st.st_mode) ? "it is a FIFO (named pipe), not a regular file"
                                            : "it is a device or socket, not a regular file");
    const auto tooLarge = [&] {
        return refuse(joined({"it is larger than ", byteSize(cap), ", which no such file is"}));
    };
    if (std::uint64_t(st.st_size) > cap)
        throw tooLarge();
    // The size may change under us: read at most cap + 1 bytes whatever fstat said.
    std::string text(std::size_t(st.st_size) + 1, '\0');
    std::size_t got = 0;
    for (;;) {
        if (got == text.size()) {
            if (text.size() > cap)
                throw tooLarge();
            text.resize(std::min<std::size_t>(text.size() * 2, cap + 1));
        }
        const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR)
            continue; // a regular file: the read does not block, so it cannot hold up a cancel
        if (n < 0)
            throw refuse(joined({"cannot read it (", std::strerror(errno), ")"}));
        if (n == 0)
            break;
        got += std::size_t(n);
    }
    text.resize(got);
    return text;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/document_file.h"

#include "files/input_file.h"
#include "input_error.h"
#include "message_text.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace la {

std::string readDocumentFile(const std::string& path, const std::string& what, std::uint64_t cap,
                             const std::string& advice) {
    const auto refuse = [&](const std::string& why) {
        return InputError(joined({what, " '", excerpt(path, 200), "': ", why, "; ", advice}));
    };
    const InputFile file = openInputFile(path, what, advice);
    const UniqueFd& fd = file.fd;
    const auto tooLarge = [&] {
        return refuse(joined({"it is larger than ", byteSize(cap), ", which no such file is"}));
    };
    if (file.bytes > cap)
        throw tooLarge();
    // The size may change under us: read at most cap + 1 bytes whatever fstat said.
    std::string text(std::size_t(file.bytes) + 1, '\0');
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

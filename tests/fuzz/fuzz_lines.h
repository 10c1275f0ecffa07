// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The line parsers' targets: every line of the input is parsed alone, as the trace scanner hands
// lines to them (core/observed/trace_scanner.h).

#include "fuzz_input.h"
#include "observed/trace_line.h"

#include <cstdlib>

namespace la::fuzz {

// TraceLine's views point into the line (trace_line.h); one pointing anywhere else is a bug even
// when nothing reads it yet.
inline void checkView(std::string_view line, std::string_view field) {
    if (!field.empty() &&
        (field.data() < line.data() || field.data() + field.size() > line.data() + line.size()))
        std::abort();
}

template <typename Parse> int parseEveryLine(const std::uint8_t* data, std::size_t size, Parse parse) {
    std::string_view rest = bytesAsText(data, size);
    while (!rest.empty()) {
        const std::size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        TraceLine out;
        parse(line, out);
        checkView(line, out.path);
    }
    return 0;
}

} // namespace la::fuzz

// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: one line of strace -f -ttt -T -yy output at a time (parseStraceLine).
#include "fuzz_lines.h"
#include "observed/strace_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return la::fuzz::parseEveryLine(data, size, la::parseStraceLine);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: one line of perf trace output at a time (parsePerfLine).
#include "fuzz_lines.h"
#include "observed/perf_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return la::fuzz::parseEveryLine(data, size, la::parsePerfLine);
}

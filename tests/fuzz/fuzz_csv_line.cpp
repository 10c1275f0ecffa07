// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: one line of Lookahead's trace CSV output at a time (parseLookaheadCsvLine).
#include "fuzz_lines.h"
#include "observed/csv_trace_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return la::fuzz::parseEveryLine(data, size, la::parseLookaheadCsvLine);
}

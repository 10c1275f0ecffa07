// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: one line of a kernel capture at a time (parseKernelCaptureLine, docs/trace-import.md
// §2.4).
#include "fuzz_lines.h"
#include "observed/kernel_capture_format.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return la::fuzz::parseEveryLine(data, size, la::parseKernelCaptureLine);
}

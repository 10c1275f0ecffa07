// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "trace_line.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace la {

// The first line of a kernel capture (docs/trace-import.md, "Kernel captures"); it identifies the
// format. The lines after it:
//   read TIME_NS DURATION_NS PID COMM RWBS OFFSET BYTES PATH   a device read of part of PATH
//   fill TIME_NS PID COMM OFFSET BYTES PATH                    pages of PATH entering the page cache
//   # TEXT                                                     what the capture says about itself
// DURATION_NS is "-" when the request's completion was not seen; RWBS is the block layer's flags
// ("R", "RS", "RA": read-ahead). COMM and PATH are escaped as strace escapes names (\ooo for a
// byte below '!' in COMM, below ' ' in PATH, '\\' and 0x7f).
inline constexpr std::string_view kKernelCaptureHeader = "# lookahead kernel capture 1";

struct KernelCaptureRecord {
    bool fill = false;            // a page-cache fill, else a device read
    std::int64_t timeNs = 0;      // issue (reads) or insertion (fills), the trace clock
    std::int64_t durationNs = -1; // issue to completion; -1: not seen
    std::uint32_t pid = 0;
    std::string comm;
    std::string flags; // reads: the block layer's RWBS
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
};

// One line, ending in '\n'.
std::string kernelCaptureLine(const KernelCaptureRecord& record, std::string_view path);

// One line of a kernel capture: read lines are reads, fill lines PageCacheFill, the header and
// comments Other.
LineKind parseKernelCaptureLine(std::string_view line, TraceLine& out);

} // namespace la

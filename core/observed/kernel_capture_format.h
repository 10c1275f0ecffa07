// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "trace_line.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace la {

// The first line of a kernel capture (docs/trace-import.md, "Kernel captures"); it identifies the
// format and its version (1 has no call lines; both are read, later ones are refused). The lines
// after it, each written when what it records is complete (nearly in time order; the import sorts):
//   read TIME_NS DURATION_NS PID COMM RWBS OFFSET BYTES PATH   a device read of part of PATH
//   fill TIME_NS PID COMM OFFSET BYTES PATH                    pages of PATH entering the page cache
//   call TIME_NS DURATION_NS PID COMM OFFSET BYTES PATH        a read system call of the traced
//                                                              processes; BYTES is what it returned
//   # TEXT                                                     what the capture says about itself
// DURATION_NS is "-" when the request's completion was not seen; RWBS is the block layer's flags
// ("R", "RS", "RA": read-ahead). COMM and PATH are escaped as strace escapes names (\ooo for a
// byte below '!' in COMM, below ' ' in PATH, '\\' and 0x7f).
inline constexpr std::string_view kKernelCaptureHeaderPrefix = "# lookahead kernel capture ";
inline constexpr std::string_view kKernelCaptureHeader = "# lookahead kernel capture 2";
inline constexpr int kKernelCaptureVersion = 2;

// Why a kernel capture whose first line is `header` cannot be read: a version this Lookahead does
// not know (a newer one's lines may mean something else). Empty when it can.
std::string kernelCaptureVersionProblem(std::string_view header);

enum class KernelRecordKind : std::uint8_t { DeviceRead, Fill, Call };

struct KernelCaptureRecord {
    KernelRecordKind kind = KernelRecordKind::DeviceRead;
    std::int64_t timeNs = 0;      // issue (reads), insertion (fills) or entry (calls), the trace clock
    std::int64_t durationNs = -1; // issue to completion, entry to exit; -1: not seen
    std::uint32_t pid = 0;
    std::string comm;
    std::string flags; // reads: the block layer's RWBS
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
};

// One line, ending in '\n'.
std::string kernelCaptureLine(const KernelCaptureRecord& record, std::string_view path);

// One line of a kernel capture: call lines are reads (Read), read lines DeviceRead, fill lines
// PageCacheFill, the header and comments Other.
LineKind parseKernelCaptureLine(std::string_view line, TraceLine& out);

} // namespace la

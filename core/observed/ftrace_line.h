// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>

namespace la {

// The events the kernel tracer enables, as a tracefs instance's trace_pipe prints them
// (docs/trace-import.md, "Kernel captures"):
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: block_rq_issue: MAJ,MIN RWBS BYTES (CMD) SECTOR + NSECT ... [COMM]
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: block_rq_complete: MAJ,MIN RWBS (CMD) SECTOR + NSECT ... [ERROR]
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: mm_filemap_add_to_page_cache: dev MAJ:MIN ino HEX pfn=0xP ofs=BYTES
//   order=N CPU:N [LOST M EVENTS]
enum class FtraceEventKind : std::uint8_t { Issue, Complete, PageCacheAdd, Lost, Other };

struct FtraceEvent {
    FtraceEventKind kind = FtraceEventKind::Other;
    std::uint32_t pid = 0;   // the task current when the event fired
    std::string_view comm;   // its name ("<idle>", "<...>" when tracefs did not record it)
    std::int64_t timeNs = 0; // the trace clock, microsecond resolution
    std::uint32_t major = 0, minor = 0;
    // Block requests.
    std::string_view rwbs;    // "R", "RA", "RS", "W", ...
    std::uint64_t sector = 0; // 512-byte sectors
    std::uint32_t sectors = 0;
    std::int32_t error = 0; // completions
    // Page-cache additions.
    std::uint64_t inode = 0;
    std::uint64_t offset = 0; // bytes into the file
    std::uint32_t order = 0;  // 2^order pages
    // Lost events.
    std::uint64_t lost = 0;

    bool isRead() const { return rwbs.find('R') != std::string_view::npos; }
};

// Parses one line; false for a line that is none of these events or is cut short.
bool parseFtraceLine(std::string_view line, FtraceEvent& out);

} // namespace la

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
//   order=N
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: sys_pread64(fd: FD, buf: P, count: N, pos: OFFSET)
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: sys_preadv(fd: FD, vec: P, vlen: N, pos_l: LOW, pos_h: HIGH)
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: sys_preadv2(fd: FD, ..., pos_h: HIGH, flags: F)
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: sys_read(fd: FD, buf: P, count: N)      (also sys_readv)
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: sys_pread64 -> RESULT     (also the other four)
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: sys_lseek(fd: FD, offset: O, whence: W)
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: sys_lseek -> RESULT
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: mm_filemap_get_pages: dev=MAJ:MIN ino=HEX ofs=FIRST-LAST
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: iomap_dio_rw_begin: dev MAJ:MIN ino 0xHEX size 0xS offset 0xO ...
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: tracing_mark_write: TEXT
//   CPU:N [LOST M EVENTS]
// With the instance's record-tgid option on, the task's process follows it: "TASK-PID (TGID) [CPU]",
// the TGID right-aligned in its brackets, "-------" where it was not recorded. TASK is right-aligned
// in 16 columns and at most 15 bytes long, so an event's name is looked for after them: a task
// cannot name itself into another event.
// A system call's numbers are decimal below 10 and "0x" hexadecimal from 10 on; a negative result
// is printed as its 64-bit two's complement.
// FileRead: the page cache looked up (a buffered read) or a direct read began of the file device:inode
// at byte `offset` (for the page cache, of the first page), in the task that reads: inside its read
// call, which it tells the file of.
enum class FtraceEventKind : std::uint8_t {
    Issue,
    Complete,
    PageCacheAdd,
    CallEnter,
    CallExit,
    SeekEnter,
    SeekExit,
    FileRead,
    Marker,
    Lost,
    Other
};

struct FtraceEvent {
    FtraceEventKind kind = FtraceEventKind::Other;
    std::uint32_t pid = 0;   // the task current when the event fired
    std::uint32_t tgid = 0;  // its process (the thread group), if recorded; 0 if not
    std::string_view comm;   // its name ("<idle>", "<...>" when tracefs did not record it)
    std::int64_t timeNs = 0; // the trace clock, microsecond resolution
    std::uint32_t major = 0, minor = 0;
    // Block requests.
    std::string_view rwbs;    // "R", "RA", "RS", "W", ...
    std::uint64_t sector = 0; // 512-byte sectors
    std::uint32_t sectors = 0;
    std::int32_t error = 0; // completions
    // Page-cache additions and file reads.
    std::uint64_t inode = 0;
    std::uint64_t offset = 0; // bytes into the file
    std::uint32_t order = 0;  // 2^order pages
    bool direct = false;      // a file read that bypasses the page cache: `offset` is exact
    // Read system calls (enter: fd and, for the positional ones, offset; exit: the result, bytes read
    // or -errno) and lseek (enter: fd; exit: the new position or -errno).
    std::int64_t fd = -1;
    bool positional = false; // pread64, preadv, preadv2: `offset` is the call's
    std::int64_t result = 0;
    // Lost events.
    std::uint64_t lost = 0;
    // A marker's text.
    std::string_view text;

    bool isRead() const { return rwbs.find('R') != std::string_view::npos; }
};

// Parses one line; false for a line that is none of these events or is cut short.
bool parseFtraceLine(std::string_view line, FtraceEvent& out);

} // namespace la

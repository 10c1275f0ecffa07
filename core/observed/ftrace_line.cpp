// SPDX-License-Identifier: GPL-3.0-or-later
#include "ftrace_line.h"

#include "checked_math.h"
#include "text_cursor.h"
#include "text_parse.h"

#include <algorithm>

namespace la {

namespace {

constexpr std::int64_t kNsPerSecond = 1'000'000'000;
// The columns tracefs gives a task's name, which is at most 15 bytes (TASK_COMM_LEN).
constexpr std::size_t kTaskColumns = 16;

bool readU32(TextCursor& c, std::uint32_t& value) {
    std::uint64_t v = 0;
    return c.readUnsigned(v) && checkedCast(v, value);
}

bool readHex(TextCursor& c, std::uint64_t& value) {
    const std::string_view rest = c.rest();
    std::uint64_t v = 0;
    std::size_t n = 0;
    for (; n < rest.size(); ++n) {
        const int digit = hexDigitValue(rest[n]);
        if (digit < 0)
            break;
        if (v > (UINT64_MAX >> 4))
            return false;
        v = (v << 4) | static_cast<std::uint64_t>(digit);
    }
    if (n == 0)
        return false;
    c.seek(c.pos() + n);
    value = v;
    return true;
}

// "TASK-PID [CPU] FLAGS SECONDS.MICROS: " up to the event's name. TASK may hold spaces and dashes:
// the pid is the digits after the last dash before the CPU's bracket.
bool parseHeader(std::string_view head, FtraceEvent& out) {
    const std::size_t cpu = head.find(" [");
    if (cpu == std::string_view::npos)
        return false;
    std::string_view task = head.substr(0, cpu);
    const auto trimEnd = [](std::string_view& text) {
        text.remove_suffix(text.size() - std::min(text.find_last_not_of(' ') + 1, text.size()));
    };
    trimEnd(task);
    if (task.ends_with(')')) { // record-tgid: "(   TGID)", or "(-------)" when not recorded
        const std::size_t open = task.rfind('(');
        if (open == std::string_view::npos)
            return false;
        std::string_view group = task.substr(open + 1, task.size() - open - 2);
        group.remove_prefix(std::min(group.find_first_not_of(' '), group.size()));
        if (group.find_first_not_of('-') != std::string_view::npos) {
            TextCursor tgid(group);
            if (!readU32(tgid, out.tgid) || !tgid.atEnd())
                return false;
        }
        task = task.substr(0, open);
        trimEnd(task);
    }
    const std::size_t dash = task.rfind('-');
    if (dash == std::string_view::npos)
        return false;
    TextCursor pid(task.substr(dash + 1));
    if (!readU32(pid, out.pid) || !pid.atEnd())
        return false;
    out.comm = task.substr(0, dash);
    out.comm.remove_prefix(std::min(out.comm.find_first_not_of(' '), out.comm.size()));
    const std::size_t stamp = head.rfind(' ');
    if (stamp == std::string_view::npos || stamp < cpu)
        return false;
    TextCursor time(head.substr(stamp + 1));
    return time.readDecimalNs(kNsPerSecond, out.timeNs) && time.atEnd();
}

// "MAJ,MIN RWBS" of a block event.
bool parseDevice(TextCursor& c, char between, FtraceEvent& out) {
    if (!readU32(c, out.major) || !c.consume(between) || !readU32(c, out.minor) || !c.consume(' '))
        return false;
    const std::string_view rest = c.rest();
    const std::size_t space = rest.find(' ');
    if (space == 0 || space == std::string_view::npos)
        return false;
    out.rwbs = rest.substr(0, space);
    c.seek(c.pos() + space + 1);
    return true;
}

// "(CMD) SECTOR + NSECT": the command is empty for file system requests.
bool parseRange(TextCursor& c, FtraceEvent& out) {
    if (!c.consume('(') || !c.skipTo(')') || !c.consume(") "))
        return false;
    return c.readUnsigned(out.sector) && c.consume(" + ") && readU32(c, out.sectors);
}

bool parseIssue(TextCursor& c, FtraceEvent& out) {
    std::uint32_t bytes = 0;
    if (!parseDevice(c, ',', out) || !readU32(c, bytes) || !c.consume(' ') || !parseRange(c, out))
        return false;
    // The issuing task's name closes the line; tracefs did not always know the task's.
    const std::string_view rest = c.rest();
    const std::size_t open = rest.find(" [");
    if (open != std::string_view::npos && rest.ends_with(']') && (out.comm.empty() || out.comm == "<...>"))
        out.comm = rest.substr(open + 2, rest.size() - open - 3);
    out.kind = FtraceEventKind::Issue;
    return true;
}

bool parseComplete(TextCursor& c, FtraceEvent& out) {
    if (!parseDevice(c, ',', out) || !parseRange(c, out))
        return false;
    const std::string_view rest = c.rest();
    const std::size_t open = rest.rfind('[');
    if (open != std::string_view::npos && rest.ends_with(']')) {
        TextCursor error(rest.substr(open + 1, rest.size() - open - 2));
        const bool negative = error.consume('-');
        std::uint32_t value = 0;
        if (!readU32(error, value) || !error.atEnd() || value > INT32_MAX)
            return false;
        out.error = negative ? -static_cast<std::int32_t>(value) : static_cast<std::int32_t>(value);
    }
    out.kind = FtraceEventKind::Complete;
    return true;
}

bool parsePageCacheAdd(TextCursor& c, FtraceEvent& out) {
    if (!c.consume("dev ") || !readU32(c, out.major) || !c.consume(':') || !readU32(c, out.minor) ||
        !c.consume(" ino ") || !readHex(c, out.inode) || !c.consume(" pfn=0x"))
        return false;
    std::uint64_t pfn = 0;
    if (!readHex(c, pfn) || !c.consume(" ofs=") || !c.readUnsigned(out.offset) || !c.consume(" order=") ||
        !readU32(c, out.order) || out.order > 20)
        return false;
    out.kind = FtraceEventKind::PageCacheAdd;
    return true;
}

// A system call's argument or result: "0x" hexadecimal, else decimal.
bool readSyscallNumber(TextCursor& c, std::uint64_t& value) {
    if (c.consume("0x"))
        return readHex(c, value);
    return c.readUnsigned(value);
}

// "NAME: VALUE" as the next argument, after ", " unless it is the first.
bool syscallArgument(TextCursor& c, std::string_view name, bool first, std::uint64_t& value) {
    return (first || c.consume(", ")) && c.consume(name) && c.consume(": ") && readSyscallNumber(c, value);
}

// "fd: FD, buf: P, count: N, pos: OFFSET)" of pread64.
bool parsePreadEnter(TextCursor& c, FtraceEvent& out) {
    std::uint64_t fd = 0, unused = 0;
    if (!syscallArgument(c, "fd", true, fd) || !syscallArgument(c, "buf", false, unused) ||
        !syscallArgument(c, "count", false, unused) || !syscallArgument(c, "pos", false, out.offset) ||
        !c.consume(')') || fd > INT32_MAX)
        return false;
    out.fd = static_cast<std::int64_t>(fd);
    out.positional = true;
    out.kind = FtraceEventKind::CallEnter;
    return true;
}

// "fd: FD, vec: P, vlen: N, pos_l: LOW, pos_h: HIGH[, flags: F])" of preadv and preadv2.
bool parsePreadvEnter(TextCursor& c, FtraceEvent& out) {
    std::uint64_t fd = 0, unused = 0, low = 0, high = 0;
    if (!syscallArgument(c, "fd", true, fd) || !syscallArgument(c, "vec", false, unused) ||
        !syscallArgument(c, "vlen", false, unused) || !syscallArgument(c, "pos_l", false, low) ||
        !syscallArgument(c, "pos_h", false, high) || fd > INT32_MAX)
        return false;
    // On 64-bit kernels pos_l holds the whole offset and pos_h is 0.
    if (high != 0 && (low > UINT32_MAX || high > UINT32_MAX))
        return false;
    out.offset = high != 0 ? (high << 32) | low : low;
    out.fd = static_cast<std::int64_t>(fd);
    out.positional = true;
    out.kind = FtraceEventKind::CallEnter;
    return true;
}

// "fd: FD, " and the rest of read's or readv's arguments: they read at the descriptor's position.
bool parseReadEnter(TextCursor& c, FtraceEvent& out) {
    std::uint64_t fd = 0;
    if (!syscallArgument(c, "fd", true, fd) || fd > INT32_MAX || !c.rest().ends_with(')'))
        return false;
    out.fd = static_cast<std::int64_t>(fd);
    out.kind = FtraceEventKind::CallEnter;
    return true;
}

// "fd: FD, offset: O, whence: W)" of lseek.
bool parseSeekEnter(TextCursor& c, FtraceEvent& out) {
    std::uint64_t fd = 0, unused = 0;
    if (!syscallArgument(c, "fd", true, fd) || !syscallArgument(c, "offset", false, unused) ||
        !syscallArgument(c, "whence", false, unused) || !c.consume(')') || fd > INT32_MAX)
        return false;
    out.fd = static_cast<std::int64_t>(fd);
    out.kind = FtraceEventKind::SeekEnter;
    return true;
}

// "RESULT" after " -> ".
bool readResult(TextCursor& c, FtraceEvent& out) {
    std::uint64_t result = 0;
    if (!readSyscallNumber(c, result) || !c.atEnd())
        return false;
    out.result = static_cast<std::int64_t>(result); // two's complement: -errno comes back negative
    return true;
}

// A call's exit, `kind` (a read call's or lseek's): its result.
template <FtraceEventKind kind> bool parseExit(TextCursor& c, FtraceEvent& out) {
    if (!readResult(c, out))
        return false;
    out.kind = kind;
    return true;
}

// "dev=MAJ:MIN ino=HEX ofs=FIRST-LAST" of mm_filemap_get_pages: the pages a buffered read looks up.
bool parseGetPages(TextCursor& c, FtraceEvent& out) {
    std::uint64_t last = 0;
    if (!c.consume("dev=") || !readU32(c, out.major) || !c.consume(':') || !readU32(c, out.minor) ||
        !c.consume(" ino=") || !readHex(c, out.inode) || !c.consume(" ofs=") || !c.readUnsigned(out.offset) ||
        !c.consume('-') || !c.readUnsigned(last) || !c.atEnd())
        return false;
    out.kind = FtraceEventKind::FileRead;
    return true;
}

// "dev MAJ:MIN ino 0xHEX size 0xS offset 0xO length 0xL ..." of iomap_dio_rw_begin.
bool parseDirectBegin(TextCursor& c, FtraceEvent& out) {
    std::uint64_t size = 0;
    if (!c.consume("dev ") || !readU32(c, out.major) || !c.consume(':') || !readU32(c, out.minor) ||
        !c.consume(" ino 0x") || !readHex(c, out.inode) || !c.consume(" size 0x") || !readHex(c, size) ||
        !c.consume(" offset 0x") || !readHex(c, out.offset) || !c.consume(" length 0x"))
        return false;
    out.direct = true;
    out.kind = FtraceEventKind::FileRead;
    return true;
}

bool parseMarker(TextCursor& c, FtraceEvent& out) {
    out.text = c.rest();
    out.kind = FtraceEventKind::Marker;
    return true;
}

} // namespace

bool parseFtraceLine(std::string_view line, FtraceEvent& out) {
    out = FtraceEvent{};
    if (line.starts_with("CPU:")) {
        const std::size_t lost = line.find("[LOST ");
        if (lost == std::string_view::npos)
            return false;
        TextCursor c(line.substr(lost + 6));
        if (!c.readUnsigned(out.lost) || !c.consume(" EVENTS]"))
            return false;
        out.kind = FtraceEventKind::Lost;
        return true;
    }
    struct Event {
        std::string_view name;
        bool (*parse)(TextCursor&, FtraceEvent&);
    };
    static constexpr Event kEvents[] = {
        {": block_rq_issue: ", parseIssue},
        {": block_rq_complete: ", parseComplete},
        {": mm_filemap_add_to_page_cache: ", parsePageCacheAdd},
        {": mm_filemap_get_pages: ", parseGetPages},
        {": iomap_dio_rw_begin: ", parseDirectBegin},
        {": sys_pread64(", parsePreadEnter},
        {": sys_preadv(", parsePreadvEnter},
        {": sys_preadv2(", parsePreadvEnter},
        {": sys_read(", parseReadEnter},
        {": sys_readv(", parseReadEnter},
        {": sys_pread64 -> ", parseExit<FtraceEventKind::CallExit>},
        {": sys_preadv -> ", parseExit<FtraceEventKind::CallExit>},
        {": sys_preadv2 -> ", parseExit<FtraceEventKind::CallExit>},
        {": sys_read -> ", parseExit<FtraceEventKind::CallExit>},
        {": sys_readv -> ", parseExit<FtraceEventKind::CallExit>},
        {": sys_lseek(", parseSeekEnter},
        {": sys_lseek -> ", parseExit<FtraceEventKind::SeekExit>},
        {": tracing_mark_write: ", parseMarker},
    };
    for (const Event& event : kEvents) {
        const std::size_t at = line.find(event.name, kTaskColumns);
        if (at == std::string_view::npos)
            continue;
        if (!parseHeader(line.substr(0, at), out))
            return false;
        TextCursor c(line.substr(at + event.name.size()));
        return event.parse(c, out);
    }
    return false;
}

} // namespace la

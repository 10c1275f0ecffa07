// SPDX-License-Identifier: GPL-3.0-or-later
#include "perf_parser.h"

#include "text_cursor.h"

#include "checked_math.h"

namespace la {

namespace {

constexpr std::int64_t kMillisecondNs = 1'000'000;

// The call's name starts the first "name(" on the line; the prefix's "( 0.148 ms)" has none.
std::size_t callStart(std::string_view line) {
    for (std::size_t open = line.find('('); open != std::string_view::npos; open = line.find('(', open + 1)) {
        std::size_t start = open;
        while (start > 0 && TextCursor::isNameChar(line[start - 1]))
            --start;
        if (start < open)
            return start;
    }
    return std::string_view::npos;
}

// "74.314 ( 0.148 ms): postgres/21796 ", any part of it, or nothing.
bool readPrefix(std::string_view prefix, TraceLine& out) {
    TextCursor c(prefix);
    c.skipSpaces();
    if (c.peek() >= '0' && c.peek() <= '9') { // a time, which must fit
        if (!c.readDecimalNs(kMillisecondNs, out.timeNs))
            return false;
        out.hasTime = true;
    }
    c.skipSpaces();
    if (c.consume('(')) {
        c.skipSpaces();
        std::int64_t duration = 0;
        if (c.readDecimalNs(kMillisecondNs, duration))
            out.durationNs = duration;
        if (!c.skipTo(')') || !c.consume(')'))
            return false;
        c.consume(':');
        c.skipSpaces();
    }
    const std::string_view task = c.rest();
    if (task.find_first_not_of(' ') == std::string_view::npos)
        return true;
    // "comm/tid ": the command may hold spaces and slashes, the tid is after the last slash.
    const std::size_t slash = task.rfind('/');
    if (slash == std::string_view::npos || !task.ends_with(' '))
        return false;
    TextCursor tid(task.substr(slash + 1));
    std::uint64_t pid = 0;
    if (!tid.readUnsigned(pid) || !checkedCast(pid, out.pid))
        return false;
    tid.skipSpaces();
    return tid.atEnd();
}

// "fd: 11, buf: 0x7f85dbb99c00, count: 8192, pos: 8192" up to the ')'. perf leaves out arguments
// that are zero, so every field starts at 0.
bool readArguments(TextCursor& c, ReadCall call, TraceLine& out) {
    out.fd = 0;
    while (!c.consume(')')) {
        if (c.consume("\xe2\x80\xa6")) { // an argument elided as "…"
            c.skipSpaces();
            if (c.consume(','))
                c.skipSpaces();
            continue;
        }
        const std::string_view key = c.readName();
        if (key.empty() || !c.consume(": "))
            return false;
        std::uint64_t value = 0;
        const bool number = c.readUnsigned(value);
        if (key == "fd") {
            if (!number || !checkedCast(value, out.fd))
                return false;
            // perf with its vfs_getname probe shows the path.
            if (!c.readAngledPath(">", out.path))
                return false;
        } else if (key == "count" && call == ReadCall::Pread) {
            out.bytes = value;
        } else if (key == "pos" || key == "pos_l") {
            out.offset = value;
        }
        while (!c.atEnd() && c.peek() != ',' && c.peek() != ')')
            c.seek(c.pos() + 1);
        if (c.atEnd())
            return false; // cut short
        if (c.consume(','))
            c.skipSpaces();
    }
    return true;
}

} // namespace

LineKind parsePerfLine(std::string_view line, TraceLine& out) {
    out = TraceLine{};
    const std::size_t start = callStart(line);
    if (start == std::string_view::npos)
        return out.kind = LineKind::Bad;
    const std::string_view prefix = line.substr(0, start);
    // perf splits a call another task interrupted: the first half is the read, this is its result.
    if (prefix.find("[continued]") != std::string_view::npos)
        return out.kind = LineKind::Other;
    if (!readPrefix(prefix, out))
        return out.kind = LineKind::Bad;
    TextCursor c(line.substr(start));
    const ReadCall call = readCallNamed(c.readName());
    c.consume('(');
    // Only calls in perf's "name: value" form; anything else is not a perf trace line.
    if (!c.consume(')') && (c.readName().empty() || !c.consume(": ")))
        return out.kind = LineKind::Bad;
    if (call == ReadCall::UringEnter)
        return out.kind = LineKind::UringEnter;
    if (call == ReadCall::None)
        return out.kind = LineKind::Other;
    c.seek(std::string_view(line.substr(start)).find('(') + 1);
    if (!readArguments(c, call, out))
        return out.kind = LineKind::Bad;
    c.skipSpaces();
    if (c.consume('=')) {
        c.skipSpaces();
        std::uint64_t result = 0;
        if (c.consume('-'))
            out.failed = true;
        else if (!c.readUnsigned(result) || !checkedCast(result, out.result))
            return out.kind = LineKind::Bad;
        if (call == ReadCall::Preadv) // perf shows no iovec lengths: what the call returned
            out.bytes = out.failed ? 0 : result;
    } else if (c.consume("...")) { // another task cut in: the read started, its end is not shown
        out.interrupted = true;
        c.skipSpaces();
        if (!c.atEnd())
            return out.kind = LineKind::Bad;
    } else if (!c.atEnd()) {
        return out.kind = LineKind::Bad;
    }
    return out.kind = withinBounds(out, LineKind::Read);
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "strace_parser.h"

#include "checked_math.h"
#include "text_cursor.h"
#include "text_parse.h"

namespace la {

namespace {

constexpr std::int64_t kSecondNs = 1'000'000'000;

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// "[pid N] " (strace -f with several processes on a terminal) or "N " (-f with -o).
bool readPid(TextCursor& c, TraceLine& out) {
    if (c.consume("[pid")) {
        c.skipSpaces();
        std::uint64_t pid = 0;
        if (!c.readUnsigned(pid) || !c.consume(']') || !checkedCast(pid, out.pid))
            return false;
        c.skipSpaces();
        return true;
    }
    const std::size_t start = c.pos();
    std::uint64_t pid = 0;
    if (c.readUnsigned(pid) && c.peek() == ' ') {
        if (!checkedCast(pid, out.pid))
            return false;
        c.skipSpaces();
    } else {
        c.seek(start); // a timestamp, not a pid
    }
    return true;
}

// -ttt "1796114808.995313", -tt "09:47:44.123456" or -t "09:47:44".
bool readTime(TextCursor& c, TraceLine& out) {
    if (!isDigit(c.peek()))
        return true;
    const std::size_t start = c.pos();
    std::uint64_t first = 0;
    c.readUnsigned(first);
    if (c.peek() == ':') {
        std::uint64_t minutes = 0;
        std::int64_t secondsNs = 0;
        if (!c.consume(':') || !c.readUnsigned(minutes) || !c.consume(':') ||
            !c.readDecimalNs(kSecondNs, secondsNs) || first >= 24 || minutes >= 60 ||
            secondsNs >= 61 * kSecondNs)
            return false; // a time of day
        out.timeNs = static_cast<std::int64_t>(first * 3600 + minutes * 60) * kSecondNs + secondsNs;
    } else {
        c.seek(start);
        if (!c.readDecimalNs(kSecondNs, out.timeNs))
            return false;
    }
    out.hasTime = true;
    c.skipSpaces();
    return true;
}

// "39</var/lib/postgresql/15/main/base/5/16390>" (-yy) or "39".
bool readFd(TextCursor& c, TraceLine& out) {
    std::uint64_t fd = 0;
    if (!c.readUnsigned(fd) || !checkedCast(fd, out.fd))
        return false;
    return c.readAngledPath(">,", out.path);
}

// preadv's "[{iov_base="..."..., iov_len=8192}, ...]": the lengths summed.
bool readIovecs(TextCursor& c, std::uint64_t& bytes) {
    if (!c.consume('['))
        return false;
    bytes = 0;
    while (!c.consume(']')) {
        if (c.atEnd())
            return false;
        if (c.peek() == '"') {
            if (!c.skipQuoted())
                return false;
        } else if (c.consume("iov_len=")) {
            std::uint64_t length = 0;
            if (!c.readUnsigned(length) || !checkedAdd(bytes, length, bytes))
                return false;
        } else {
            c.seek(c.pos() + 1);
        }
    }
    return true;
}

// Everything after the fd: "BUF, COUNT, OFFSET[, FLAGS]) = RESULT [<DURATION>]".
bool readTail(TextCursor& c, ReadCall call, TraceLine& out) {
    std::uint64_t iovBytes = 0;
    if (c.peek() == '"') {
        if (!c.skipQuoted())
            return false;
        c.consume("...");
    } else if (c.peek() == '[') {
        if (!readIovecs(c, iovBytes))
            return false;
    } else if (!c.skipTo(',')) { // an address: a failed call, whose buffer strace does not show
        return false;
    }
    std::uint64_t count = 0;
    if (!c.consume(','))
        return false;
    c.skipSpaces();
    if (!c.readUnsigned(count) || !c.consume(','))
        return false;
    c.skipSpaces();
    // A negative offset is refused by the kernel: only a failed call may show one.
    const bool negativeOffset = c.consume('-');
    if (!c.readUnsigned(out.offset) || !c.skipTo(')') || !c.consume(')'))
        return false;
    out.bytes = call == ReadCall::Preadv ? iovBytes : count;
    c.skipSpaces();
    if (!c.consume('='))
        return false;
    c.skipSpaces();
    std::uint64_t result = 0;
    if (c.consume('?') || c.consume('-')) {
        out.failed = true;
        c.readUnsigned(result);
    } else if (!c.readUnsigned(result) || !checkedCast(result, out.result)) {
        return false;
    }
    if (negativeOffset && !out.failed)
        return false;
    // A failed call is followed by "ERRNO (text)" before the duration.
    const std::size_t lt = c.rest().rfind(" <");
    if (lt == std::string_view::npos)
        return out.failed || c.rest().find_first_not_of(' ') == std::string_view::npos;
    c.seek(c.pos() + lt + 2);
    std::int64_t duration = 0;
    if (c.readDecimalNs(kSecondNs, duration) && c.consume('>'))
        out.durationNs = duration;
    else if (!out.failed) // "<unavailable>" only follows "= ?"
        return false;
    return true;
}

} // namespace

std::string unescapeStracePath(std::string_view path) {
    std::string plain;
    plain.reserve(path.size());
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '\\' || i + 1 == path.size()) {
            plain += path[i];
            continue;
        }
        const char c = path[++i];
        if (c == 'x' && i + 2 < path.size() && hexDigitValue(path[i + 1]) >= 0 &&
            hexDigitValue(path[i + 2]) >= 0) {
            plain += static_cast<char>(hexDigitValue(path[i + 1]) * 16 + hexDigitValue(path[i + 2]));
            i += 2;
        } else if (c >= '0' && c <= '7') {
            int value = 0;
            std::size_t digits = 0;
            for (; digits < 3 && i < path.size() && path[i] >= '0' && path[i] <= '7'; ++digits, ++i)
                value = value * 8 + (path[i] - '0');
            --i;
            plain += static_cast<char>(value & 0xff);
        } else {
            static constexpr std::string_view kNamed = "n\nt\tr\rv\vf\f";
            const std::size_t at = kNamed.find(c);
            plain += at != std::string_view::npos && at % 2 == 0 ? kNamed[at + 1] : c;
        }
    }
    return plain;
}

LineKind parseStraceLine(std::string_view line, TraceLine& out) {
    out = TraceLine{};
    TextCursor c(line);
    c.skipSpaces();
    if (c.consume("strace: ")) // strace's own messages, when its stderr went into the file
        return out.kind = LineKind::Other;
    if (c.consume("# ")) // what `lookahead capture` states about the capture, after strace's lines
        return out.kind = LineKind::Other;
    if (!readPid(c, out) || !readTime(c, out))
        return out.kind = LineKind::Bad;
    if (c.consume("+++") || c.consume("---")) // exits and signals
        return out.kind = LineKind::Other;
    if (c.consume("<... ")) {
        const ReadCall call = readCallNamed(c.readName());
        if (!c.consume(" resumed>"))
            return out.kind = LineKind::Bad;
        if (call == ReadCall::UringEnter)
            return out.kind = LineKind::UringEnter;
        if (call == ReadCall::None)
            return out.kind = LineKind::Other;
        c.skipSpaces();
        if (c.consume("<unfinished ...>")) { // the process died in the call
            out.failed = true;
            return out.kind = LineKind::Resumed;
        }
        return out.kind = readTail(c, call, out) ? withinBounds(out, LineKind::Resumed) : LineKind::Bad;
    }
    const std::string_view name = c.readName();
    if (name.empty() || !c.consume('('))
        return out.kind = LineKind::Bad;
    const ReadCall call = readCallNamed(name);
    if (call == ReadCall::UringEnter)
        return out.kind = LineKind::UringEnter;
    if (call == ReadCall::None)
        return out.kind = LineKind::Other;
    if (!readFd(c, out) || !c.consume(','))
        return out.kind = LineKind::Bad;
    c.skipSpaces();
    if (c.consume("<unfinished ...>"))
        return out.kind = withinBounds(out, LineKind::Started);
    return out.kind = readTail(c, call, out) ? withinBounds(out, LineKind::Read) : LineKind::Bad;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_capture_format.h"

#include "checked_math.h"
#include "message_text.h"
#include "text_cursor.h"

namespace la {

namespace {

// strace's escaping, so that --trace-relation finds an escaped name as it finds strace's.
void appendEscaped(std::string& out, std::string_view text, unsigned char lowest) {
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (byte < lowest || byte == 0x7f || ch == '\\') {
            out += '\\';
            out += static_cast<char>('0' + ((byte >> 6) & 7));
            out += static_cast<char>('0' + ((byte >> 3) & 7));
            out += static_cast<char>('0' + (byte & 7));
        } else {
            out += ch;
        }
    }
}

bool field(TextCursor& c, std::uint64_t& value) {
    return c.readUnsigned(value) && c.consume(' ');
}

// A word up to the next space (the task's escaped name).
bool word(TextCursor& c, std::string_view& value) {
    const std::string_view rest = c.rest();
    const std::size_t space = rest.find(' ');
    if (space == 0 || space == std::string_view::npos)
        return false;
    value = rest.substr(0, space);
    c.seek(c.pos() + space + 1);
    return true;
}

} // namespace

std::string kernelCaptureVersionProblem(std::string_view header) {
    TextCursor c(header);
    std::uint64_t version = 0;
    if (!c.consume(kKernelCaptureHeaderPrefix))
        return {};
    if (c.readUnsigned(version) && c.atEnd() && version >= 1 && version <= kKernelCaptureVersion)
        return {};
    return "it is a kernel capture of version '" +
           excerpt(header.substr(kKernelCaptureHeaderPrefix.size()), 20) +
           "', and this Lookahead reads versions 1 to " + std::to_string(kKernelCaptureVersion) +
           ": import it with the Lookahead that captured it, or capture again";
}

std::string kernelCaptureLine(const KernelCaptureRecord& record, std::string_view path) {
    static constexpr std::string_view kWords[] = {"read ", "fill ", "call "};
    const bool timed = record.kind != KernelRecordKind::Fill;
    std::string line(kWords[static_cast<std::size_t>(record.kind)]);
    line += std::to_string(record.timeNs);
    if (timed) {
        line += ' ';
        line += record.durationNs >= 0 ? std::to_string(record.durationNs) : std::string("-");
    }
    line += ' ';
    line += std::to_string(record.pid);
    line += ' ';
    appendEscaped(line, record.comm.empty() ? std::string_view("?") : std::string_view(record.comm), '!');
    line += ' ';
    if (record.kind == KernelRecordKind::DeviceRead) {
        appendEscaped(line, record.flags.empty() ? std::string_view("R") : std::string_view(record.flags),
                      '!');
        line += ' ';
    }
    line += std::to_string(record.offset);
    line += ' ';
    line += std::to_string(record.bytes);
    line += ' ';
    appendEscaped(line, path, ' ');
    line += '\n';
    return line;
}

LineKind parseKernelCaptureLine(std::string_view line, TraceLine& out) {
    out = TraceLine{};
    if (line.starts_with('#')) {
        // The capture's closing count of what the kernel dropped: reads missing from the file.
        constexpr std::string_view kLost = "; lost events ";
        if (const std::size_t at = line.find(kLost); at != std::string_view::npos) {
            TextCursor lost(line.substr(at + kLost.size()));
            if (!lost.readUnsigned(out.lostEvents))
                out.lostEvents = 0;
        }
        return out.kind = LineKind::Other;
    }
    TextCursor c(line);
    const bool fill = c.consume("fill ");
    const bool call = !fill && c.consume("call ");
    if (!fill && !call && !c.consume("read "))
        return out.kind = LineKind::Bad;
    std::uint64_t time = 0, pid = 0, duration = 0;
    if (!field(c, time) || !checkedCast(time, out.timeNs))
        return out.kind = LineKind::Bad;
    out.hasTime = true;
    if (!fill) {
        if (c.consume("- ")) {
            out.durationNs = -1;
        } else if (!field(c, duration) || !checkedCast(duration, out.durationNs)) {
            return out.kind = LineKind::Bad;
        }
    }
    const bool device = !fill && !call;
    std::string_view comm, flags;
    if (!field(c, pid) || !checkedCast(pid, out.pid) || !word(c, comm) || (device && !word(c, flags)) ||
        !field(c, out.offset) || !field(c, out.bytes) || c.atEnd() || out.bytes == 0)
        return out.kind = LineKind::Bad;
    out.path = c.rest();
    out.readAhead = flags.find('A') != std::string_view::npos;
    if (fill)
        return out.kind = withinBounds(out, LineKind::PageCacheFill);
    return out.kind = withinBounds(out, call ? LineKind::Read : LineKind::DeviceRead);
}

} // namespace la

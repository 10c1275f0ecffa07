// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_format.h"

#include "checked_math.h"
#include "csv_trace_parser.h"
#include "kernel_capture_format.h"
#include "perf_parser.h"
#include "strace_parser.h"

namespace la {

std::uint64_t coveredBytes(const TraceLine& line) {
    return line.result >= 0 && static_cast<std::uint64_t>(line.result) < line.bytes
               ? static_cast<std::uint64_t>(line.result)
               : line.bytes;
}

LineKind withinBounds(const TraceLine& line, LineKind kind) {
    if (line.timeNs < 0 || line.timeNs > kMaxTraceTimeNs || line.durationNs > kMaxReadDurationNs ||
        line.path.size() > kMaxTracePathBytes)
        return LineKind::Bad;
    if ((kind != LineKind::Read && kind != LineKind::Resumed && kind != LineKind::DeviceRead) || line.failed)
        return kind;
    if (line.result >= 0 && static_cast<std::uint64_t>(line.result) > line.bytes)
        return LineKind::Bad; // a read returns at most what it asked for
    const std::uint64_t covered = coveredBytes(line);
    std::uint32_t first = 0, end = 0;
    if (covered > kMaxReadBytes || (covered > 0 && !blockSpan(line.offset, covered, first, end)))
        return LineKind::Bad;
    return kind;
}

namespace {

// Every format a trace may be in, one entry each: its line parser and, for a format that says what it
// is in its first line, that header (the others are told apart by how many first lines they parse).
struct TraceFormatEntry {
    TraceFormat format;
    LineKind (*parse)(std::string_view line, TraceLine& out);
    std::string_view header;
};

constexpr TraceFormatEntry kTraceFormats[] = {
    {TraceFormat::Strace, parseStraceLine, {}},
    {TraceFormat::Perf, parsePerfLine, {}},
    {TraceFormat::LookaheadCsv, parseLookaheadCsvLine, kLookaheadCsvHeader},
    {TraceFormat::Kernel, parseKernelCaptureLine, kKernelCaptureHeaderPrefix},
};

} // namespace

LineKind parseTraceLine(TraceFormat format, std::string_view line, TraceLine& out) {
    for (const TraceFormatEntry& entry : kTraceFormats)
        if (entry.format == format)
            return entry.parse(line, out);
    out = TraceLine{};
    return LineKind::Bad;
}

std::string traceFormatChoices() {
    std::string text;
    for (std::size_t i = 0; i < std::size(kTraceFormats); ++i)
        text.append(i == 0                              ? ""
                    : i + 1 == std::size(kTraceFormats) ? " or "
                                                        : ", ")
            .append(traceFormatName(kTraceFormats[i].format));
    return text;
}

std::optional<TraceFormat> detectTraceFormat(const std::vector<std::string>& firstLines) {
    for (const TraceFormatEntry& entry : kTraceFormats)
        if (!entry.header.empty() && !firstLines.empty() && firstLines.front().starts_with(entry.header))
            return entry.format;
    std::optional<TraceFormat> best;
    int bestScore = 0;
    for (const TraceFormatEntry& entry : kTraceFormats) {
        if (!entry.header.empty())
            continue;
        int score = 0;
        TraceLine parsed;
        for (const std::string& line : firstLines)
            if (entry.parse(line, parsed) != LineKind::Bad)
                ++score;
        if (score > bestScore) {
            bestScore = score;
            best = entry.format;
        }
    }
    return best;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_format.h"

#include "checked_math.h"
#include "csv_trace_parser.h"
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
    if ((kind != LineKind::Read && kind != LineKind::Resumed) || line.failed)
        return kind;
    if (line.result >= 0 && static_cast<std::uint64_t>(line.result) > line.bytes)
        return LineKind::Bad; // a read returns at most what it asked for
    const std::uint64_t covered = coveredBytes(line);
    std::uint32_t first = 0, end = 0;
    if (covered > kMaxReadBytes || (covered > 0 && !blockSpan(line.offset, covered, first, end)))
        return LineKind::Bad;
    return kind;
}

LineKind parseTraceLine(TraceFormat format, std::string_view line, TraceLine& out) {
    switch (format) {
    case TraceFormat::Strace:
        return parseStraceLine(line, out);
    case TraceFormat::Perf:
        return parsePerfLine(line, out);
    case TraceFormat::LookaheadCsv:
        return parseLookaheadCsvLine(line, out);
    case TraceFormat::Auto:
        break;
    }
    out = TraceLine{};
    return LineKind::Bad;
}

std::optional<TraceFormat> detectTraceFormat(const std::vector<std::string>& firstLines) {
    if (!firstLines.empty() && firstLines.front().starts_with(kLookaheadCsvHeader))
        return TraceFormat::LookaheadCsv;
    std::optional<TraceFormat> best;
    int bestScore = 0;
    for (TraceFormat format : {TraceFormat::Strace, TraceFormat::Perf}) {
        int score = 0;
        TraceLine parsed;
        for (const std::string& line : firstLines) {
            const LineKind kind = parseTraceLine(format, line, parsed);
            if (kind != LineKind::Bad)
                ++score;
        }
        if (score > bestScore) {
            bestScore = score;
            best = format;
        }
    }
    return best;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "csv_trace_parser.h"

#include "block_size.h"
#include "checked_math.h"
#include "io/event_csv.h"
#include "text_cursor.h"

#include <array>
#include <optional>

namespace la {

namespace {
// The columns after the run label: time_ns, position, event, block, nblocks, io_id, in_flight,
// distance, combine_distance, pinned, miss, waited.
constexpr std::size_t kColumnsAfterLabel = 12;
enum Column { Time, Position, EventName, Block, Nblocks, IoId };

bool number(std::string_view text, std::uint64_t& value) {
    TextCursor c(text);
    return c.readUnsigned(value) && c.atEnd();
}
} // namespace

LineKind parseLookaheadCsvLine(std::string_view line, TraceLine& out) {
    out = TraceLine{};
    if (line.starts_with(kLookaheadCsvHeader))
        return out.kind = LineKind::Other;
    // Labels are free text (they may hold commas), the columns after them never do: split from the right.
    std::array<std::string_view, kColumnsAfterLabel> columns;
    std::size_t end = line.size();
    for (std::size_t i = kColumnsAfterLabel; i-- > 0;) {
        const std::size_t comma = end == 0 ? std::string_view::npos : line.rfind(',', end - 1);
        if (comma == std::string_view::npos)
            return out.kind = LineKind::Bad;
        columns[i] = line.substr(comma + 1, end - comma - 1);
        end = comma;
    }
    out.path = line.substr(0, end);
    std::uint64_t time = 0, block = 0, nblocks = 0, ioId = 0;
    if (!number(columns[Time], time) || !number(columns[Block], block) ||
        !number(columns[Nblocks], nblocks) || !number(columns[IoId], ioId) ||
        !checkedCast(time, out.timeNs) || !checkedCast(ioId, out.ioId) || !blockBytes(block, out.offset) ||
        !blockBytes(nblocks, out.bytes))
        return out.kind = LineKind::Bad;
    out.hasTime = true;
    const std::optional<EventKind> event = eventKindNamed(columns[EventName]);
    if (event == EventKind::ReadStarted)
        return out.kind = withinBounds(out, LineKind::Read);
    if (event == EventKind::ReadCompleted)
        return out.kind = withinBounds(out, LineKind::Completed);
    if (event == EventKind::Waited)
        return out.kind = withinBounds(out, LineKind::Waited);
    return out.kind = LineKind::Other;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "trace_line.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace la {

enum class TraceFormat : std::uint8_t { Auto, Strace, Perf, LookaheadCsv, Kernel };

// "auto", "strace", "perf", "lookahead-csv", "kernel": the names --trace-format takes.
const char* traceFormatName(TraceFormat format);
// Throws InputError naming the choices.
TraceFormat traceFormatNamed(std::string_view name);
// The format named `name` ("auto" included), or nothing.
std::optional<TraceFormat> traceFormatIfNamed(std::string_view name);
// "strace, perf, lookahead-csv or kernel": every format a trace may be in, for help texts and messages.
std::string traceFormatChoices();

// Parses one line in a known format.
LineKind parseTraceLine(TraceFormat format, std::string_view line, TraceLine& out);

// The format whose parser recognizes the most reads (or read-related lines) among the first lines
// of a trace; nothing if no parser recognizes any.
std::optional<TraceFormat> detectTraceFormat(const std::vector<std::string>& firstLines);

} // namespace la

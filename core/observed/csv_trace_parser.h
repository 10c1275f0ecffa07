// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "trace_line.h"

#include <string_view>

namespace la {

// The header EventCsvWriter (core/io/event_csv.h) writes first; it identifies the format.
inline constexpr std::string_view kLookaheadCsvHeader = "run,time_ns,position,event,";

// One row of Lookahead's own trace CSV. read_started rows are reads (the run label stands for the
// file), read_completed and waited rows refer to them by io_id; other events are Other.
LineKind parseLookaheadCsvLine(std::string_view line, TraceLine& out);

} // namespace la

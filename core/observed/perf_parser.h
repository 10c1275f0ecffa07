// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "trace_line.h"

#include <string_view>

namespace la {

// One line of `perf trace -e pread64,preadv` output, with or without the
// "74.314 ( 0.148 ms): postgres/21796 " prefix and the " = RESULT" suffix (docs/trace-import.md,
// "perf trace"). Fills `out` and returns its kind.
LineKind parsePerfLine(std::string_view line, TraceLine& out);

} // namespace la

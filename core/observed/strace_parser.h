// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "trace_line.h"

#include <string>
#include <string_view>

namespace la {

// One line of `strace [-f] [-t|-tt|-ttt] [-T] [-y|-yy] -e trace=pread64,preadv,preadv2` output
// (docs/trace-import.md, "strace"). Fills `out` and returns its kind.
LineKind parseStraceLine(std::string_view line, TraceLine& out);

// A path as strace -yy printed it with its escapes undone: \xNN and octal \NNN bytes, \n, \t,
// \\ and so on. strace escapes bytes a terminal would not show and characters of its own syntax.
std::string unescapeStracePath(std::string_view path);

} // namespace la

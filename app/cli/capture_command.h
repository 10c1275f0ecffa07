// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace la {

// `lookahead capture [--tracer kernel|strace|auto] --out FILE [--pid PID ...] [--files PATH ...]
// [-- COMMAND ...]`: records the reads of running processes, or of COMMAND started for it, until
// they end or Ctrl+C, into a file --import-trace reads (docs/trace-import.md). `args` follow the
// word "capture". Returns the exit code: 0, 2 for bad input (a pid that names no process, a command
// that cannot be run: --out is then left as it was) or a tracer that cannot run, 1 for a failed
// capture, 130/143 when interrupted (the capture so far is written). `--clean` removes what killed
// captures left behind.
int runCaptureCommand(const std::vector<std::string>& args);

std::string captureUsageText();

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run.h"
#include "run_trace.h"

namespace la {

// Puts `trace`'s exact columns on disk, in the private directory of `config`'s dataset files and
// event spools (on disk, not a tmpfs in RAM), so a window's memory stays bounded at any run length.
// Where that directory cannot be made private, the trace keeps them in memory.
void spillBesideDatasets(RunTrace& trace, const RunConfig& config);

} // namespace la

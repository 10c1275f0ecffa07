// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/output_guard.h"
#include "run_config.h"

#include <vector>

namespace la {

// What a run reads: --file, --blocks, a prewarm list, and (real I/O on a dataset) the dataset cache
// directory, whose files no output may replace.
std::vector<NamedPath> runInputs(const RunConfig& config);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"

#include <string>

namespace la {

// A run's summary as the command line prints it, under `label`.
std::string describeRun(const std::string& label, const RunSummary& summary);

} // namespace la

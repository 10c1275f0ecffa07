// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"

#include <string>

namespace la {

// A run's summary as the headless run prints it, under `label`: its figures in the words of the
// summary fields' table (core/summary_fields.h), as the window's summary panel shows them.
std::string describeRun(const std::string& label, const RunSummary& summary);

} // namespace la

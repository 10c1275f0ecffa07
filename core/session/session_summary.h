// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session_file.h"
#include "summary.h"

#include <string_view>

namespace la {

// Every field of a run's summary as name/value text, exactly: whole numbers in decimal, reals with
// 17 significant digits, so that summaryFromFields(summaryFields(s)) == s field by field. The summary
// JSON rounds nothing either but keeps only EXPLAIN's averages, not the counts they come from.
NameValues summaryFields(const RunSummary& summary);
// Throws InputError ("run 1: summary field 'ios' is missing") for a missing, malformed or out-of-range
// field (each kind of figure has its range: figure_limits.h); `which` names the run ("run 1", "run 1's
// repeat 2") if given. The caller that read the fields names their file (sessionDamaged).
RunSummary summaryFromFields(const NameValues& fields, std::string_view which = {});

} // namespace la

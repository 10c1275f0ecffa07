// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session_file.h"
#include "summary.h"

namespace la {

// Every field of a run's summary as name/value text, exactly: whole numbers in decimal, reals with
// 17 significant digits, so that summaryFromFields(summaryFields(s)) == s field by field. The summary
// JSON rounds nothing either but keeps only EXPLAIN's averages, not the counts they come from.
NameValues summaryFields(const RunSummary& summary);
// Throws InputError ("summary field 'ios' ...") for a missing or malformed field; `where` names the file.
RunSummary summaryFromFields(const NameValues& fields, const std::string& where);

} // namespace la

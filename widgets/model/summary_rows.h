// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"

#include <QString>

#include <vector>

namespace la {

// One line of the summary panel: a label and one value per run (A, B).
struct SummaryRow {
    QString label;
    std::vector<QString> values;
};

// The key numbers of each run, side by side. The panel shows them and the PNG export paints the same
// rows, so both always agree.
std::vector<SummaryRow> summaryRows(const std::vector<const RunSummary*>& runs);

} // namespace la

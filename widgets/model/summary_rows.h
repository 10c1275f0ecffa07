// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"

#include <QString>

#include <vector>

namespace la {

// One line of the summary panel: a label, one value per run (A, B), and what a reader should know
// about the figure (the panel's tooltip on the label).
struct SummaryRow {
    QString label;
    std::vector<QString> values;
    QString note;
};

// The key numbers of each run, side by side. The panel shows them and the PNG export paints the same
// rows, so both always agree.
std::vector<SummaryRow> summaryRows(const std::vector<const RunSummary*>& runs);

} // namespace la

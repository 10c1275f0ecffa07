// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "experiment/reconciliation.h"
#include "summary.h"

#include <QString>

namespace la {

// The one-line A/B verdict: B's two largest differences from A, how much faster or slower B ran, and what
// limited each run. "B (pg19): 2,778 → 177 reads, 1.70× faster; A I/O-bound (waited 41 % of the time,
// distance ≤ 2 for 98 % of blocks), B consumer-bound (waited 2 %)". `b.policy` is B's label.
QString verdict(const RunSummary& a, const RunSummary& b);

// The verdict of an experiment's two runs with B's label ("B (pg19): 2.7x faster, 1,480 fewer waits");
// for an observed run, how its model compares with what PostgreSQL did, what limited each (the trace's
// own label for the observed run) and which of the server's settings bound them. Empty unless both ran.
QString variantVerdict(const Experiment& experiment, const std::vector<RunSummary>& summaries);

// How the model's misses compare with PostgreSQL's shared read and the trace's reads: the
// reconciliation of the run that has one (experiment/reconciliation.h), one line.
ReconciliationLine reconciliationLine(const std::vector<RunSummary>& summaries);

// What every front end says after an experiment's runs, worked out once: the reconciliation line,
// then the verdict.
struct RunsVerdict {
    ReconciliationLine reconciliation;
    QString verdict;
};
RunsVerdict runsVerdict(const Experiment& experiment, const std::vector<RunSummary>& summaries);

} // namespace la

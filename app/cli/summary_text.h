// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "experiment/verdict.h"
#include "summary.h"

#include <string>
#include <vector>

namespace la {

// A run's summary as the headless run prints it, under `label`: its figures in the words of the
// summary fields' table (core/summary/summary_fields.h), as the window's summary panel shows them.
std::string describeRun(const std::string& label, const RunSummary& summary);

// PostgreSQL's EXPLAIN figures for the scan (an observed run's, or a recorded model's own) beside the
// model's, a row each, as the command line prints them; empty where no run has them.
std::string describeBesideServer(const Experiment& experiment, const std::vector<RunSummary>& summaries);

// What the command line prints after the runs: the reconciliation of the model's figures with the
// server's and the trace's first (experiment/reconciliation.h), then the verdict; a line each.
std::string verdictLines(const RunsVerdict& verdict);

} // namespace la

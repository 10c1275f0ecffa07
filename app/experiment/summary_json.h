// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "run.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace la {

// {"schema": "lookahead.summary/1", "config": {...}, "compare": "...", "runs": [...]}: the contract
// scripts rely on. "config" is A's; each run also records its label, direction and own options.
// `runs` are the summaries of the experiment's runs that finished, in order.
QJsonObject summaryDocument(const Experiment& experiment, const std::vector<RunSummary>& runs);
QJsonObject configObject(const RunConfig& config);
// One run's figures, as in "runs" (without label, direction and options), from the summary fields'
// table (core/summary_fields.h).
QJsonObject runSummaryObject(const RunSummary& summary);
// A run's figures read back from such an object (a sweep merging its runs' files). Lenient: a missing
// or mistyped figure is zero; EXPLAIN's counters and the index facts are not there to read.
RunSummary runSummaryOf(const QJsonObject& run);

// {"key": "value", ...}: the experiment's provenance, as the document's "provenance".
QJsonObject provenanceJson(const std::vector<std::pair<std::string, std::string>>& provenance);

// The document as indented UTF-8 JSON.
QByteArray summaryJson(const Experiment& experiment, const std::vector<RunSummary>& runs);
// Writes the document atomically (output_file.h); returns an error message, empty on success.
[[nodiscard]] QString writeSummaryJson(const QString& path, const Experiment& experiment,
                                       const std::vector<RunSummary>& runs);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "observed/observed_summary.h"
#include "run.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace la {

// {"schema": "lookahead.summary/1", "config": {...}, "compare": "...", "runs": [...]}: the contract
// scripts rely on. "config" is A's; each run also records its label, direction and own options.
// `runs` are the summaries of the experiment's runs that finished, in order.
QJsonObject summaryDocument(const Experiment& experiment, const std::vector<RunSummary>& runs);
QJsonObject configObject(const RunConfig& config);
// One run's figures, as in "runs" (without label, direction and options), from the summary fields'
// table (core/summary/summary_fields.h).
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

// The model of an imported trace: the policy, its settings and (once run) its summary.
struct ObservedModel {
    std::string policy;
    RunConfig config;
    std::optional<RunSummary> summary;
};

// The summary document of an import (schema lookahead.summary/1, "compare": "observed"): runs[0] is
// the observed run ("policy": "observed", "source", "relation", ...), runs[1] the model's.
// `serverExplain`, where given, is PostgreSQL's own EXPLAIN of the scan (explain_output.h), kept as the
// observed run's "postgresql_explain".
QJsonObject importSummaryDocument(const std::string& tracePath, const ObservedSummary& observed,
                                  const ObservedModel& model, const QJsonObject& serverExplain = {});

} // namespace la

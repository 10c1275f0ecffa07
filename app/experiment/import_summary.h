// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed/observed_summary.h"
#include "run.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <string>

namespace la {

// The model of an imported trace: the policy, its settings and (once run) its summary.
struct ObservedModel {
    std::string policy;
    RunConfig config;
    std::optional<RunSummary> summary;
};

// The summary document of an import (schema lookahead.summary/1, "compare": "observed"): runs[0] is
// the observed run ("policy": "observed", "source", "relation", ...), runs[1] the model's.
QJsonObject importSummaryDocument(const std::string& tracePath, const ObservedSummary& observed,
                                  const ObservedModel& model);

// "observed 49,969 reads (49,969 of 8 kB); pg18 model 49,969 reads (49,969 of 8 kB)".
QString observedVerdict(const ObservedSummary& observed, const RunSummary& model);

// The observed run as the headless run prints it.
std::string describeObserved(const ObservedSummary& observed);

} // namespace la

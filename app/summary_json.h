// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace la {

// {"schema": "lookahead.summary/1", "config": {...}, "runs": [...]}: the contract scripts rely on.
QJsonObject summaryDocument(const RunConfig& config, const std::vector<RunSummary>& runs);
QJsonObject configObject(const RunConfig& config);

// The document as indented UTF-8 JSON.
QByteArray summaryJson(const RunConfig& config, const std::vector<RunSummary>& runs);
// Writes the document atomically (output_file.h); returns an error message, empty on success.
[[nodiscard]] QString writeSummaryJson(const QString& path, const RunConfig& config,
                                       const std::vector<RunSummary>& runs);

// "B (pg19): 2.7x faster, 1,480 fewer waits" - the one-line A/B verdict.
QString verdict(const RunSummary& a, const RunSummary& b);

} // namespace la

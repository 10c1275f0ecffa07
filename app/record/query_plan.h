// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/recorded_plan.h"

#include <QJsonValue>
#include <QString>

#include <optional>

namespace la {

// Plans `query` on the query's session: only a query that reads is recorded (the server decides
// what it does). Planning also reads what planning needs (catalogs, the index's metapage), so that
// the traced run's reads are its execution's. Its nodes that read a relation, whose relations
// `control` looks up. Throws RecordError.
RecordedPlan planQuery(PgSession& session, PgSession& control, const QString& query);

// EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of `query`, with IO where the server has it (19+).
QString explainAnalyze(int serverMajor, const QString& query);

// A plan for "recorded": its JSON, or its text where it is not JSON.
QJsonValue planJson(const QString& text);

// The execution time an EXPLAIN ANALYZE states, if it can be read.
std::optional<double> executionMs(const QString& planText);

} // namespace la

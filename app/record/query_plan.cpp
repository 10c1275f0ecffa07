// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/query_plan.h"

#include "input_error.h"
#include "record/query_check.h"
#include "record/rescan_visits.h"
#include "record/work_file.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace la {

RecordedPlan planQuery(PgSession& session, PgSession& control, const QString& query) {
    const QString planned = requireReadOnlyQuery(session, query, QStringLiteral("the query"));
    const ExplainOutput plan = asRecordError(
        [&] { return parseExplainOutput(planned.toUtf8(), QStringLiteral("the query's plan")); });
    RecordedPlan recorded = recordedPlanOf(plan, control);
    for (RecordedPlanNode& node : recorded.nodes)
        node.rescan = rescanQueryOf(planned, recorded, node.id, control);
    return recorded;
}

QString explainAnalyze(int serverMajor, const QString& query) {
    return QStringLiteral("EXPLAIN (ANALYZE, BUFFERS%1, FORMAT JSON) ")
               .arg(serverMajor >= 19 ? QStringLiteral(", IO") : QString()) +
           query;
}

QJsonValue planJson(const QString& text) {
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(text);
}

std::optional<double> executionMs(const QString& planText) {
    try {
        return parseExplainOutput(planText.toUtf8(), QStringLiteral("the query's plan")).executionMs;
    } catch (const InputError&) {
        return std::nullopt;
    }
}

} // namespace la

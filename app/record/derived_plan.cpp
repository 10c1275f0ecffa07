// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/derived_plan.h"

#include "experiment/explain_output.h"
#include "experiment/plan_nodes.h"
#include "record/pg_session.h"
#include "record/work_file.h"

#include <QStringList>

namespace la {

const ExplainNode* DerivedPlan::find(const QString& type, const QString& index,
                                     const QString& relation) const {
    for (const ExplainNode& scan : scans)
        if (scan.nodeType == type && scan.index == index && (relation.isEmpty() || scan.relation == relation))
            return &scan;
    return nullptr;
}

DerivedPlan derivedPlan(const QString& planJson, const QString& what) {
    const ExplainOutput plan = asRecordError(
        [&] { return parseExplainOutput(planJson.toUtf8(), QStringLiteral("the plan of ") + what); });
    DerivedPlan derived;
    QStringList shown;
    for (const ExplainNode& node : plan.nodes) {
        shown << node.nodeType + (node.index.isEmpty() ? QString() : QStringLiteral(" using ") + node.index) +
                     (node.backward ? QStringLiteral(" (backward)") : QString());
        derived.sorted = derived.sorted || node.nodeType.contains(QLatin1String("Sort"));
        if (readsRelation(node))
            derived.scans.push_back(node);
    }
    derived.shown = shown.join(QStringLiteral(" > "));
    return derived;
}

} // namespace la

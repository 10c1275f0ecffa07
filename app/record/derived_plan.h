// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The check of a query the recording derives from the user's to ask the server for a node's visits
// (docs/recording.md, "Plans"): its plan must scan what the user's query scanned, the same way.

#include "experiment/explain_plan.h"

#include <QString>

#include <vector>

namespace la {

// The plan (EXPLAIN, FORMAT JSON) of a derived query, as far as the check needs it.
struct DerivedPlan {
    std::vector<ExplainNode> scans; // its nodes that read a relation, in plan order
    bool sorted = false;            // a node sorts rows (Sort, Incremental Sort)
    QString shown;                  // every node, as "Aggregate > Index Scan using t_a (backward)"

    // Its scan of `type` using `index` (none: empty), and of `relation` where that is not empty; null
    // where it has none.
    const ExplainNode* find(const QString& type, const QString& index, const QString& relation = {}) const;
};

// Throws RecordError naming `what` where `planJson` is no plan.
DerivedPlan derivedPlan(const QString& planJson, const QString& what);

} // namespace la

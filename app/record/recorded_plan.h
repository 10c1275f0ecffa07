// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/recorded_scan.h"
#include "record/rescan_query.h"

#include <QByteArray>
#include <QJsonArray>
#include <QString>

#include <optional>
#include <vector>

namespace la {

// A node of the recorded plan that reads a relation (experiment/plan_nodes.h), by its place in the
// plan: node_id, pre-order from 0.
struct RecordedPlanNode {
    int id = 0;
    RecordedScan scan;
    // Set for the inner Index Scan of a nested loop: how its visits per outer row are asked for.
    std::optional<RescanQuery> rescan;
};

// Every node of the query's plan that reads a relation, and those relations.
struct RecordedPlan {
    std::vector<RecordedPlanNode> nodes;
    std::vector<RecordedRelation> relations; // each table and index once, in plan order

    std::vector<const RecordedRelation*> relationsRead() const;
};

// The plan's nodes that read a relation (EXPLAIN VERBOSE, FORMAT JSON) and their relations, which
// `control` looks up. Throws RecordError when the plan reads none, naming what it has instead.
RecordedPlan recordedPlanOf(const ExplainOutput& plan, PgSession& control);

// Why `node` (`ran`: as it ran) read no block of its table, or empty: an Index Only Scan whose every
// visit the visibility map answered.
QString whyNoHeapBlock(const RecordedPlanNode& node, const ExplainNode& ran);

// Why the model cannot have the visits of `node` (`ran`: as it ran) yet, or empty: a Seq Scan's are its
// table's blocks, an index or bitmap heap scan's come from the server (node_visits.h) when it ran
// once; `visitsGiven` (--visits-query) gives any heap node's.
QString whyNotModelled(const RecordedPlanNode& node, const ExplainNode& ran, bool visitsGiven);

// The node the model runs: `asked` (--node), else the node whose visits can be had with the most
// shared reads of its own in `ran` (the plan as it ran: EXPLAIN ANALYZE), else the heap node with the
// most (its visits then come from the trace). Throws RecordError for an `asked` node that reads no
// table, for a chosen node that read none of its table's blocks (whyNoHeapBlock), or when `ran` is
// not the plan recorded.
const RecordedPlanNode& modelledNode(const RecordedPlan& plan, const ExplainOutput& ran,
                                     std::optional<int> asked, bool visitsGiven);

// "recorded"'s "nodes" (plan_nodes.h), each saying whether it is modelled and, if not, why.
QJsonArray recordedNodesJson(const RecordedPlan& plan, const ExplainOutput& ran, int serverMajor,
                             const RecordedPlanNode& modelled, bool visitsGiven);

// The plan as it ran (EXPLAIN ANALYZE, FORMAT JSON) with the node `nodeId` alone, with its own
// shared hit and read: what the replay compares the model with. Throws RecordError.
QByteArray nodePlanJson(const QString& ranPlan, const ExplainOutput& ran, int nodeId);

} // namespace la

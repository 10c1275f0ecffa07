// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The nodes of a recorded plan that read a relation (docs/recording.md, "Plans"): which they are,
// their own figures, what the server's version does for each, and how the summary JSON and the text
// summary show them.

#include "experiment/explain_plan.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace la {

// Seq Scan, Sample Scan, Index Scan, Index Only Scan, Bitmap Heap Scan, Bitmap Index Scan, Tid Scan,
// Tid Range Scan: a node that reads a relation's blocks through shared buffers.
bool readsRelation(const ExplainNode& node);

// The node's own figure: EXPLAIN's counts its children's buffers too, so theirs are taken off.
// Nothing where the node has no such figure.
std::optional<std::uint64_t> ownFigure(const ExplainOutput& plan, std::size_t nodeId,
                                       std::optional<std::uint64_t> ExplainNode::*figure);

// What PostgreSQL `serverMajor` does for a node of `nodeType`: whether it reads through a read stream.
QString serverStreamOf(const QString& nodeType, int serverMajor);

// "recorded"'s "nodes": every node of `plan` that reads a relation, by its place in the plan (node_id,
// pre-order from 0), with its own EXPLAIN figures and its loops (each loop after the first a rescan:
// a read_stream_reset where the node has a stream).
QJsonArray planNodesJson(const ExplainOutput& plan, int serverMajor);

// Each run of a summary document gets the recording's nodes ("nodes"); the modelled node ("modelled":
// true) also the run's own figures: "model" for a modelled run, "trace" for the observed one.
void addPlanNodes(QJsonObject& doc, const QJsonObject& recorded);

// `--node ID` with a session: its runs are of the recording's modelled node, so `nodeId` must be that
// node. Returns the node's line of planNodesText(); throws InputError naming the nodes the plan has,
// or, for a node that is not modelled, why not and how to record it (`session`: the file).
std::string requireModelledNode(const QJsonObject& recorded, int nodeId, const std::string& session);

// The recording's nodes as lines of the text summary, or nothing where it has none.
std::string planNodesText(const QJsonObject& recorded);

// What a recording's runs are of, for a caption: "node 3 (Index Scan on r using r_id) of a query
// recorded on PostgreSQL 15.8"; empty where the runs model no recorded node.
QString modelledNodeText(const QJsonObject& recorded);

} // namespace la

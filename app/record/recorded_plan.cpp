// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/recorded_plan.h"

#include "experiment/plan_nodes.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace la {

namespace {

// The Bitmap Heap Scan above a Bitmap Index Scan (through BitmapAnd and BitmapOr): the table whose
// blocks its bitmap holds.
const ExplainNode& bitmapHeapOf(const ExplainOutput& plan, std::size_t nodeId) {
    int depth = plan.nodes[nodeId].depth;
    for (std::size_t above = nodeId; above-- > 0;) {
        if (plan.nodes[above].depth >= depth)
            continue;
        if (plan.nodes[above].nodeType == QLatin1String("Bitmap Heap Scan"))
            return plan.nodes[above];
        depth = plan.nodes[above].depth;
    }
    throw RecordError(
        QStringLiteral("the plan's Bitmap Index Scan (node %1) is under no Bitmap Heap Scan").arg(nodeId));
}

bool isBitmapIndexScan(const RecordedPlanNode& node) {
    return node.scan.node.nodeType == QLatin1String("Bitmap Index Scan");
}

void addRelation(std::vector<RecordedRelation>& relations, const RecordedRelation& relation) {
    for (const RecordedRelation& known : relations)
        if (known.oid == relation.oid)
            return;
    relations.push_back(relation);
}

std::uint64_t ownSharedRead(const ExplainOutput& ran, int nodeId) {
    return ownFigure(ran, std::size_t(nodeId), &ExplainNode::sharedRead).value_or(0);
}

// The node object at `nodeId` of a FORMAT JSON plan, counting its nodes in pre-order as the parser
// does (a node, then its "Plans" in order).
bool findNodeObject(const QJsonObject& node, int& counter, int nodeId, QJsonObject& found) {
    if (counter++ == nodeId) {
        found = node;
        return true;
    }
    for (const QJsonValue& child : node.value(QStringLiteral("Plans")).toArray())
        if (findNodeObject(child.toObject(), counter, nodeId, found))
            return true;
    return false;
}

// A node that read no block of its table leaves the model nothing to follow: said as such, rather
// than as visits that cannot be had.
void requireHeapBlocks(const RecordedPlanNode& node, const ExplainOutput& ran) {
    const QString why = whyNoHeapBlock(node, ran.nodes[std::size_t(node.id)]);
    if (why.isEmpty())
        return;
    throw RecordError(QStringLiteral("node %1 (%2 on %3) has nothing to model: it is %4. To model its "
                                     "heap fetches, record it before the table is vacuumed or as a plain "
                                     "Index Scan (--set enable_indexonlyscan=off)")
                          .arg(node.id)
                          .arg(node.scan.node.nodeType, node.scan.heap.name, why));
}

} // namespace

std::vector<const RecordedRelation*> RecordedPlan::relationsRead() const {
    std::vector<const RecordedRelation*> read;
    for (const RecordedRelation& relation : relations)
        read.push_back(&relation);
    return read;
}

RecordedPlan recordedPlanOf(const ExplainOutput& plan, PgSession& control) {
    RecordedPlan recorded;
    for (std::size_t id = 0; id < plan.nodes.size(); ++id) {
        const ExplainNode& node = plan.nodes[id];
        if (!readsRelation(node))
            continue;
        const bool bitmapIndex = node.nodeType == QLatin1String("Bitmap Index Scan");
        RecordedPlanNode scanNode{int(id),
                                  recordedScanOf(node, bitmapIndex ? bitmapHeapOf(plan, id) : node, control),
                                  std::nullopt};
        addRelation(recorded.relations, scanNode.scan.heap);
        // A Bitmap Index Scan's index is not modelled, and not traced: its read calls would hide the
        // device reads of a heap read through io_uring (traced_run.h, traceReads).
        if (scanNode.scan.index && !bitmapIndex)
            addRelation(recorded.relations, *scanNode.scan.index);
        recorded.nodes.push_back(std::move(scanNode));
    }
    if (recorded.nodes.empty()) {
        QStringList nodes;
        for (const ExplainNode& node : plan.nodes)
            nodes << node.nodeType;
        throw RecordError(QStringLiteral("the query's plan reads no table (it has %1): record a query that "
                                         "reads one, with a Seq Scan, an Index Scan or a Bitmap Heap Scan")
                              .arg(nodes.join(QStringLiteral(", "))));
    }
    return recorded;
}

QString whyNoHeapBlock(const RecordedPlanNode& node, const ExplainNode& ran) {
    if (node.scan.node.nodeType != QLatin1String("Index Only Scan") || !ran.heapFetches ||
        *ran.heapFetches > 0)
        return {};
    return QStringLiteral("an Index Only Scan that fetched no heap block (Heap Fetches: 0): the visibility "
                          "map answered each of its %1 visits, so it read only its index, and index pages "
                          "are not modelled yet")
        .arg(qint64(ran.rowsVisited()));
}

QString whyNotModelled(const RecordedPlanNode& node, const ExplainNode& ran, bool visitsGiven) {
    const RecordedScan& scan = node.scan;
    const QString& type = scan.node.nodeType;
    if (isBitmapIndexScan(node))
        return QStringLiteral("a Bitmap Index Scan reads its index into a bitmap, and index pages are not "
                              "modelled yet");
    if (visitsGiven || scan.sequential())
        return {};
    if (const QString noHeap = whyNoHeapBlock(node, ran); !noHeap.isEmpty())
        return noHeap;
    const QString giveVisits =
        QStringLiteral(" (give --node %1 and --visits-query SQL returning its ctids in visit order)")
            .arg(node.id);
    if (type == QLatin1String("Index Scan") || type == QLatin1String("Index Only Scan") ||
        type == QLatin1String("Bitmap Heap Scan")) {
        if (node.rescan) // a nested loop's inner scan: its visits per outer row, from the server
            return node.rescan->sql.isEmpty() ? node.rescan->why + giveVisits : QString();
        if (ran.loops.value_or(1) <= 1)
            return {};
        return QStringLiteral("it ran %1 times, its index condition taking each outer row's values, and the "
                              "visits of each scan are not worked out yet")
                   .arg(*ran.loops) +
               giveVisits;
    }
    return QStringLiteral("the visits of a %1 are not worked out yet").arg(type) + giveVisits;
}

const RecordedPlanNode& modelledNode(const RecordedPlan& plan, const ExplainOutput& ran,
                                     std::optional<int> asked, bool visitsGiven) {
    for (const RecordedPlanNode& node : plan.nodes) {
        const std::size_t id = std::size_t(node.id);
        if (id >= ran.nodes.size() || ran.nodes[id].nodeType != node.scan.node.nodeType ||
            ran.nodes[id].relation != node.scan.node.relation)
            throw RecordError(
                QStringLiteral("the plan that ran is not the plan the query was planned with (node %1, a %2 "
                               "when planned): record it again")
                    .arg(node.id)
                    .arg(node.scan.node.nodeType));
    }
    if (asked) {
        QStringList ids;
        for (const RecordedPlanNode& node : plan.nodes) {
            if (node.id == *asked && !isBitmapIndexScan(node)) {
                if (!visitsGiven)
                    requireHeapBlocks(node, ran);
                return node;
            }
            if (!isBitmapIndexScan(node))
                ids << QStringLiteral("%1 (%2 on %3)")
                           .arg(node.id)
                           .arg(node.scan.node.nodeType, node.scan.heap.name);
        }
        throw RecordError(QStringLiteral("--node %1 is no node that reads a table: choose one of %2")
                              .arg(*asked)
                              .arg(ids.join(QStringLiteral(", "))));
    }
    const RecordedPlanNode* best = nullptr;
    const RecordedPlanNode* bestWithVisits = nullptr;
    for (const RecordedPlanNode& node : plan.nodes) {
        if (isBitmapIndexScan(node))
            continue;
        const auto more = [&](const RecordedPlanNode* than) {
            return than == nullptr || ownSharedRead(ran, node.id) > ownSharedRead(ran, than->id);
        };
        if (more(best))
            best = &node;
        if (whyNotModelled(node, ran.nodes[std::size_t(node.id)], visitsGiven).isEmpty() &&
            more(bestWithVisits))
            bestWithVisits = &node;
    }
    // Every Bitmap Index Scan has its Bitmap Heap Scan, so `best` is set.
    const RecordedPlanNode& chosen = bestWithVisits ? *bestWithVisits : *best;
    if (!visitsGiven)
        requireHeapBlocks(chosen, ran);
    return chosen;
}

QJsonArray recordedNodesJson(const RecordedPlan& plan, const ExplainOutput& ran, int serverMajor,
                             const RecordedPlanNode& modelled, bool visitsGiven) {
    QJsonArray nodes = planNodesJson(ran, serverMajor);
    for (QJsonValueRef value : nodes) {
        QJsonObject node = value.toObject();
        const int id = node.value(QStringLiteral("node_id")).toInt();
        node[QStringLiteral("modelled")] = id == modelled.id;
        for (const RecordedPlanNode& recorded : plan.nodes)
            if (recorded.id == id && id != modelled.id) {
                const QString why = whyNotModelled(recorded, ran.nodes[std::size_t(id)], visitsGiven);
                node[QStringLiteral("why_not_modelled")] =
                    why.isEmpty()
                        ? QStringLiteral("the model runs one node at a time: give --node %1").arg(id)
                        : why;
            }
        value = node;
    }
    return nodes;
}

QByteArray nodePlanJson(const QString& ranPlan, const ExplainOutput& ran, int nodeId) {
    const QJsonDocument document = QJsonDocument::fromJson(ranPlan.toUtf8());
    const QJsonObject query = document.isArray() ? document.array().at(0).toObject() : document.object();
    int counter = 0;
    QJsonObject node;
    if (!findNodeObject(query.value(QStringLiteral("Plan")).toObject(), counter, nodeId, node))
        throw RecordError(QStringLiteral("the plan that ran has no node %1").arg(nodeId));
    node.remove(QStringLiteral("Plans"));
    const auto own = [&](const char* key, std::optional<std::uint64_t> ExplainNode::*figure) {
        if (const std::optional<std::uint64_t> value = ownFigure(ran, std::size_t(nodeId), figure))
            node[QLatin1String(key)] = qint64(*value);
    };
    own("Shared Hit Blocks", &ExplainNode::sharedHit);
    own("Shared Read Blocks", &ExplainNode::sharedRead);
    QJsonObject alone = query;
    alone[QStringLiteral("Plan")] = node;
    return QJsonDocument(QJsonArray{alone}).toJson();
}

} // namespace la

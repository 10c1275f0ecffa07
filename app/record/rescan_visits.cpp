// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/rescan_visits.h"

#include "files/held_directory.h"
#include "record/derived_plan.h"
#include "record/index_order.h"
#include "record/visit_blocks.h"
#include "record/work_file.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringList>

#include <string>
#include <vector>

namespace la {

namespace {

// At most this many visits and outer rows: the model holds its visits in memory, as
// --visits-query's (scan_visits.cpp).
constexpr std::uint64_t kMaxItems = 200'000'000;

// How many outer rows are fetched at a time: what is held in memory of the answer.
constexpr int kOuterRowsBatch = 10'000;

// A plan node of FORMAT JSON and its parent's place, in the pre-order the node ids count.
struct FlatNode {
    QJsonObject node;
    int parent = -1;
};

void flatten(const QJsonObject& node, int parent, std::vector<FlatNode>& out) {
    const int id = int(out.size());
    out.push_back({node, parent});
    for (const QJsonValue& child : node.value(QStringLiteral("Plans")).toArray())
        flatten(child.toObject(), id, out);
}

std::vector<FlatNode> flatPlan(const QString& planJson) {
    const QJsonDocument document = QJsonDocument::fromJson(planJson.toUtf8());
    const QJsonObject query = document.isArray() ? document.array().at(0).toObject() : document.object();
    std::vector<FlatNode> nodes;
    flatten(query.value(QStringLiteral("Plan")).toObject(), -1, nodes);
    return nodes;
}

QString text(const QJsonObject& node, const char* key) {
    return node.value(QLatin1String(key)).toString();
}

// EXPLAIN prints a parameter of the plan (a subplan's, an initplan's, a nested loop's above) in a
// form that is no SQL of its own.
bool namesAPlanParameter(const QString& condition) {
    static const QRegularExpression parameter(QStringLiteral(R"(\$\d|SubPlan|InitPlan|\(hashed )"));
    return condition.contains(parameter);
}

// The conditions joined by AND, for a WHERE clause; empty for none.
QString whereClause(const QStringList& conditions) {
    QStringList present;
    for (const QString& condition : conditions)
        if (!condition.isEmpty())
            present << condition;
    return present.isEmpty() ? QString() : QStringLiteral(" WHERE ") + present.join(QStringLiteral(" AND "));
}

// The inner index's order, as ORDER BY says it: its key columns, then the ctid, which orders a btree's
// equal keys; reversed for a backward scan. Empty, with `why` set, for an index whose order of equal
// keys is not that.
QString innerOrder(PgSession& control, const RecordedRelation& index, const QString& alias, bool backward,
                   QString& why) {
    IndexOrder order = indexOrder(control, index.oid, index.name, backward);
    if (order.keys.isEmpty()) {
        why = QStringLiteral("its index is a %1 index, whose order of equal keys the server does not say")
                  .arg(order.accessMethod);
        return {};
    }
    order.keys << alias + QStringLiteral(".ctid") + (backward ? QStringLiteral(" DESC") : QString());
    return order.keys.join(QStringLiteral(", "));
}

const RecordedPlanNode* recordedNode(const RecordedPlan& plan, int id) {
    for (const RecordedPlanNode& node : plan.nodes)
        if (node.id == id)
            return &node;
    return nullptr;
}

// Whether the plan of the visits query scans what the query did: the outer relation with the outer
// node's scan, and the inner index with an Index Scan. Else why not.
QString planDiffers(const RescanQuery& query, const QString& planJson) {
    const DerivedPlan plan = derivedPlan(planJson, QStringLiteral("the inner scan's visits"));
    const bool outer = plan.find(query.outerType, query.outerIndex, query.outerRelation);
    const bool inner = plan.find(QStringLiteral("Index Scan"), query.innerIndex);
    if (!outer)
        return QStringLiteral("the server plans the outer rows' query without the query's %1 on %2")
            .arg(query.outerType, query.outerRelation);
    if (!inner)
        return QStringLiteral("the server plans the inner rows' query without an Index Scan using %1")
            .arg(query.innerIndex);
    return {};
}

// The heap blocks of a row's ctids ("{"(12,3)","(12,4)"}", empty for none) in their order, a block
// the scan keeps pinned across consecutive ctids once. Throws RecordError for a block past the heap.
std::vector<std::uint32_t> blocksOf(const QString& ctids, const RecordedRelation& heap,
                                    std::uint64_t& count) {
    static const QRegularExpression ctid(QStringLiteral(R"(\((\d+),\d+\))"));
    std::vector<std::uint32_t> blocks;
    for (QRegularExpressionMatchIterator it = ctid.globalMatch(ctids); it.hasNext();) {
        bool ok = false;
        const qulonglong block = it.next().captured(1).toULongLong(&ok);
        if (!ok || block >= heap.blocks)
            throw RecordError(
                QStringLiteral("the server gave the inner scan a ctid in block %1, past the end "
                               "of %2 (%3 blocks): record it again")
                    .arg(block)
                    .arg(heap.name)
                    .arg(heap.blocks));
        ++count;
        if (blocks.empty() || blocks.back() != block)
            blocks.push_back(std::uint32_t(block));
    }
    return blocks;
}

struct Walked {
    std::uint64_t outerRows = 0, ctids = 0, visits = 0;
};

// Fetches the query's rows through a cursor and writes them as a block list with resets.
Walked writeVisits(PgSession& session, const RescanQuery& query, const RecordedRelation& heap,
                   OutputFile& out) {
    session.query(QStringLiteral("DECLARE lookahead_rescans NO SCROLL CURSOR FOR ") + query.sql, {},
                  QStringLiteral("the inner scan's visits"));
    const QString fetch = QStringLiteral("FETCH FORWARD %1 FROM lookahead_rescans").arg(kOuterRowsBatch);
    Walked walked;
    for (;;) {
        const PgSession::Rows rows = session.query(fetch, {}, QStringLiteral("the inner scan's visits"));
        if (rows.empty())
            break;
        std::string lines;
        for (const QStringList& row : rows) {
            if (walked.outerRows++ > 0)
                lines += "reset\n";
            for (const std::uint32_t block : blocksOf(row.value(0), heap, walked.ctids)) {
                lines += std::to_string(block);
                lines += '\n';
                ++walked.visits;
            }
            if (walked.outerRows + walked.visits > kMaxItems)
                throw RecordError(
                    QStringLiteral("the inner scan's visits and rescans pass the %1 a recording "
                                   "holds")
                        .arg(kMaxItems));
        }
        asRecordError([&] { out.write(lines); });
    }
    session.query(QStringLiteral("CLOSE lookahead_rescans"));
    return walked;
}

} // namespace

std::optional<RescanQuery> rescanQueryOf(const QString& plannedJson, const RecordedPlan& plan, int nodeId,
                                         PgSession& control) {
    const std::vector<FlatNode> nodes = flatPlan(plannedJson);
    if (nodeId < 0 || std::size_t(nodeId) >= nodes.size())
        return std::nullopt;
    const QJsonObject& inner = nodes[std::size_t(nodeId)].node;
    const int parent = nodes[std::size_t(nodeId)].parent;
    if (text(inner, "Node Type") != QLatin1String("Index Scan") || parent < 0 ||
        text(nodes[std::size_t(parent)].node, "Node Type") != QLatin1String("Nested Loop") ||
        text(inner, "Parent Relationship") != QLatin1String("Inner"))
        return std::nullopt;
    const QJsonObject& join = nodes[std::size_t(parent)].node;
    RescanQuery query;
    query.innerIndex = text(inner, "Index Name");
    int outerId = -1;
    for (std::size_t id = std::size_t(parent) + 1; id < nodes.size() && outerId < 0; ++id)
        if (nodes[id].parent == parent &&
            text(nodes[id].node, "Parent Relationship") == QLatin1String("Outer"))
            outerId = int(id);
    const RecordedPlanNode* outerNode = recordedNode(plan, outerId);
    const RecordedPlanNode* innerNode = recordedNode(plan, nodeId);
    const QJsonObject outer = outerId >= 0 ? nodes[std::size_t(outerId)].node : QJsonObject();
    query.outerType = text(outer, "Node Type");
    query.outerRelation = text(outer, "Relation Name");
    query.outerIndex = text(outer, "Index Name");
    const QString joinType = text(join, "Join Type");
    query.firstRowOnly = joinType == QLatin1String("Semi") || joinType == QLatin1String("Anti") ||
                         join.value(QStringLiteral("Inner Unique")).toBool();
    const QString outerCondition = text(outer, "Index Cond"), outerFilter = text(outer, "Filter");
    const QString innerCondition = text(inner, "Index Cond");
    if (query.firstRowOnly &&
        (join.contains(QStringLiteral("Join Filter")) || inner.contains(QStringLiteral("Filter")))) {
        query.why = QStringLiteral("the nested loop stops at the first inner row its filters pass, which the "
                                   "server's answer does not say");
        return query;
    }
    if (!outerNode || !innerNode || !innerNode->scan.index ||
        (query.outerType != QLatin1String("Seq Scan") && query.outerType != QLatin1String("Index Scan") &&
         query.outerType != QLatin1String("Index Only Scan"))) {
        query.why =
            QStringLiteral("its outer side is a %1, whose rows in their order the recording cannot ask "
                           "for alone")
                .arg(query.outerType.isEmpty() ? QStringLiteral("plan of several nodes") : query.outerType);
        return query;
    }
    for (const QString& condition : {outerCondition, outerFilter, innerCondition})
        if (namesAPlanParameter(condition)) {
            query.why = QStringLiteral("the condition %1 refers to a parameter of the plan").arg(condition);
            return query;
        }
    const QString outerAlias = quotedIdentifier(text(outer, "Alias"));
    const QString innerAlias = quotedIdentifier(text(inner, "Alias"));
    const bool backward = text(inner, "Scan Direction") == QLatin1String("Backward");
    const QString order = innerOrder(control, *innerNode->scan.index, innerAlias, backward, query.why);
    if (order.isEmpty())
        return query;
    const QString innerRows =
        innerNode->scan.heap.name + QStringLiteral(" AS ") + innerAlias + whereClause({innerCondition});
    const QString ctids =
        query.firstRowOnly
            ? QStringLiteral(
                  "SELECT array_agg(lookahead_first.ctid) FROM (SELECT %1.ctid FROM %2 ORDER BY %3 "
                  "LIMIT 1) AS lookahead_first")
                  .arg(innerAlias, innerRows, order)
            : QStringLiteral("SELECT array_agg(%1.ctid ORDER BY %2) FROM %3")
                  .arg(innerAlias, order, innerRows);
    // The outer rows are numbered as their scan returns them; the inner scan's ctids follow each.
    query.sql =
        QStringLiteral("SELECT lookahead_inner.ctids FROM (SELECT row_number() OVER () AS "
                       "lookahead_outer_row, %1.* FROM %2 AS %1%3) AS %1 CROSS JOIN LATERAL (%4) AS "
                       "lookahead_inner(ctids) ORDER BY %1.lookahead_outer_row")
            .arg(outerAlias, outerNode->scan.heap.name, whereClause({outerCondition, outerFilter}), ctids);
    return query;
}

std::optional<ScanVisits> rescanVisits(const RescanQuery& query, PgSession& session,
                                       const RecordedRelation& heap, std::uint64_t loops, bool local,
                                       const HeldDirectory& work, QString& why) {
    // A query that fails leaves the session's transaction usable, as it was.
    session.query(QStringLiteral("SAVEPOINT lookahead_rescans"));
    const auto rollBack = [&] { session.query(QStringLiteral("ROLLBACK TO SAVEPOINT lookahead_rescans")); };
    try {
        why = planDiffers(query, session.value(QStringLiteral("EXPLAIN (FORMAT JSON) ") + query.sql));
    } catch (const RecordError& error) {
        if (error.sqlState().isEmpty()) // a cancel or a lost connection: no answer of the server's
            throw;
        why = QStringLiteral("the server refuses the query of its visits: %1").arg(error.message());
    }
    if (!why.isEmpty()) {
        rollBack();
        return std::nullopt;
    }
    std::optional<Walked> walked;
    asRecordError([&] {
        OutputFile visitsFile(work, "visits.txt", "the visits");
        walked = writeVisits(session, query, heap, visitsFile);
        if (walked->outerRows == loops && walked->visits > 0)
            visitsFile.commit();
    });
    session.query(QStringLiteral("RELEASE SAVEPOINT lookahead_rescans"));
    if (walked->outerRows != loops) {
        why = QStringLiteral("the server's answer has %1 outer rows where the inner scan ran %2 times")
                  .arg(walked->outerRows)
                  .arg(loops);
        return std::nullopt;
    }
    if (walked->visits == 0) {
        why = QStringLiteral("no outer row found an inner row");
        return std::nullopt;
    }
    return ScanVisits{{{QStringLiteral("source"), QStringLiteral("rescans")},
                       {QStringLiteral("query"), query.sql},
                       {QStringLiteral("outer_rows"), qint64(walked->outerRows)},
                       {QStringLiteral("resets"), qint64(walked->outerRows - 1)},
                       {QStringLiteral("ctids"), qint64(walked->ctids)},
                       {QStringLiteral("count"), qint64(walked->visits)},
                       {QStringLiteral("first_row_only"), query.firstRowOnly}},
                      visitBlocksArgs(work, heap, local)};
}

} // namespace la

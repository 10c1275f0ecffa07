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

#include <algorithm>
#include <optional>
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

// The plan's visits (docs/plan-runs.md), written beside the inner scan's: stream 0 the outer scan,
// stream 1 the inner one, in one block space (the inner heap after the outer one, unless they are one
// table), in the executor's order: the outer scan's blocks up to an outer row's, then that row's inner
// visits. A Seq Scan reads every block of its table, those with no row the join takes too.
class PlanVisitsWriter {
public:
    PlanVisitsWriter(const RescanQuery& query, const RecordedRelation& inner, OutputFile& out)
        : m_out(out), m_seqScan(query.outerType == QLatin1String("Seq Scan")),
          m_outerBlocks(query.outerBlocks),
          m_innerFirst(query.outerHeap == inner.name ? 0 : query.outerBlocks),
          m_fits(m_innerFirst + inner.blocks <= kBlockSpace && m_outerBlocks <= kBlockSpace) {}

    // Whether both tables fit one block space (block numbers below 2^32 - 1).
    bool fits() const { return m_fits; }
    // An outer row on `outerBlock`, and the inner scan's blocks for it.
    void row(std::uint32_t outerBlock, const std::vector<std::uint32_t>& innerBlocks, bool first) {
        if (!m_fits)
            return;
        if (outerBlock >= m_outerBlocks)
            throw RecordError(QStringLiteral("the server gave an outer row in block %1, past the end of the "
                                             "outer table (%2 blocks): record it again")
                                  .arg(outerBlock)
                                  .arg(m_outerBlocks));
        const std::uint64_t from = m_read ? *m_read + 1 : 0;
        if (!m_read || outerBlock != *m_read) {
            turnTo(0);
            for (std::uint64_t block = m_seqScan ? from : outerBlock; block <= outerBlock; ++block)
                m_lines += std::to_string(block) + '\n';
            m_read = outerBlock;
        }
        turnTo(1);
        if (!first)
            m_lines += "reset\n";
        for (const std::uint32_t block : innerBlocks)
            m_lines += std::to_string(m_innerFirst + block) + '\n';
        if (m_lines.size() >= kFlushBytes)
            flush();
    }
    // The rest of a Seq Scan's table, read after its last row the join took.
    void finish() {
        if (m_fits && m_seqScan) {
            const std::uint64_t from = m_read ? *m_read + 1 : 0;
            if (from < m_outerBlocks)
                turnTo(0);
            for (std::uint64_t block = from; block < m_outerBlocks; ++block)
                m_lines += std::to_string(block) + '\n';
        }
        flush();
    }
    std::uint64_t innerFirst() const { return m_innerFirst; }

private:
    static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
    static constexpr std::uint64_t kBlockSpace = 4'294'967'295ULL; // blocks 0 .. 2^32 - 2
    void turnTo(int stream) {
        if (m_stream != stream)
            m_lines += stream == 0 ? "stream 0\n" : "stream 1\n";
        m_stream = stream;
    }
    void flush() {
        asRecordError([&] { m_out.write(m_lines); });
        m_lines.clear();
    }

    OutputFile& m_out;
    bool m_seqScan;
    std::uint64_t m_outerBlocks;
    std::uint64_t m_innerFirst;
    bool m_fits;
    std::optional<std::uint64_t> m_read; // the outer scan's last block read
    int m_stream = -1;
    std::string m_lines;
};

// The block of a ctid "(12,3)"; nothing for anything else.
std::optional<std::uint32_t> blockOfCtid(const QString& ctid) {
    static const QRegularExpression pattern(QStringLiteral(R"(^\((\d+),\d+\)$)"));
    const QRegularExpressionMatch match = pattern.match(ctid.trimmed());
    bool ok = false;
    const qulonglong block = match.hasMatch() ? match.captured(1).toULongLong(&ok) : 0;
    if (!ok || block > 0xFFFFFFFEULL)
        return std::nullopt;
    return std::uint32_t(block);
}

// Fetches the query's rows through a cursor and writes them as a block list with resets, and the
// plan's visits to `plan`.
Walked writeVisits(PgSession& session, const RescanQuery& query, const RecordedRelation& heap,
                   OutputFile& out, PlanVisitsWriter& plan) {
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
            const bool first = walked.outerRows++ == 0;
            if (!first)
                lines += "reset\n";
            const std::vector<std::uint32_t> blocks = blocksOf(row.value(0), heap, walked.ctids);
            for (const std::uint32_t block : blocks) {
                lines += std::to_string(block);
                lines += '\n';
                ++walked.visits;
            }
            const std::optional<std::uint32_t> outerBlock = blockOfCtid(row.value(1));
            if (!outerBlock)
                throw RecordError(QStringLiteral("the server gave an outer row whose ctid is '%1': record "
                                                 "it again")
                                      .arg(row.value(1).left(40)));
            plan.row(*outerBlock, blocks, first);
            if (walked.outerRows + walked.visits > kMaxItems)
                throw RecordError(
                    QStringLiteral("the inner scan's visits and rescans pass the %1 a recording "
                                   "holds")
                        .arg(kMaxItems));
        }
        asRecordError([&] { out.write(lines); });
    }
    session.query(QStringLiteral("CLOSE lookahead_rescans"));
    plan.finish();
    return walked;
}

// "visits"'s "plan": the plan's visits file and its streams, each a node at its first block.
QJsonObject planVisitsJson(const RescanQuery& query, const RecordedRelation& inner, std::uint64_t innerFirst,
                           const HeldDirectory& work) {
    const auto stream = [](int id, int node, const QString& relation, std::uint64_t first) {
        return QJsonObject{{QStringLiteral("stream"), id},
                           {QStringLiteral("node_id"), node},
                           {QStringLiteral("relation"), relation},
                           {QStringLiteral("first_block"), qint64(first)}};
    };
    return {
        {QStringLiteral("file"), QString::fromStdString(work.filePath("plan-visits.txt"))},
        {QStringLiteral("relation_blocks"), qint64(std::max(query.outerBlocks, innerFirst + inner.blocks))},
        {QStringLiteral("streams"), QJsonArray{stream(0, query.outerNode, query.outerHeap, 0),
                                               stream(1, query.innerNode, inner.name, innerFirst)}}};
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
    query.outerNode = outerId;
    query.innerNode = nodeId;
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
    query.outerHeap = outerNode->scan.heap.name;
    query.outerBlocks = outerNode->scan.heap.blocks;
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
        QStringLiteral(
            "SELECT lookahead_inner.ctids, %1.lookahead_outer_ctid FROM (SELECT row_number() OVER () "
            "AS lookahead_outer_row, %1.ctid AS lookahead_outer_ctid, %1.* FROM %2 AS %1%3) AS %1 "
            "CROSS JOIN LATERAL (%4) AS lookahead_inner(ctids) ORDER BY %1.lookahead_outer_row")
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
    std::uint64_t innerFirst = 0;
    bool planFits = false;
    asRecordError([&] {
        OutputFile visitsFile(work, "visits.txt", "the visits");
        OutputFile planFile(work, "plan-visits.txt", "the plan's visits");
        PlanVisitsWriter plan(query, heap, planFile);
        innerFirst = plan.innerFirst();
        planFits = plan.fits();
        walked = writeVisits(session, query, heap, visitsFile, plan);
        if (walked->outerRows == loops && walked->visits > 0) {
            visitsFile.commit();
            if (planFits)
                planFile.commit();
        }
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
    return ScanVisits{
        {{QStringLiteral("source"), QStringLiteral("rescans")},
         {QStringLiteral("query"), query.sql},
         {QStringLiteral("outer_rows"), qint64(walked->outerRows)},
         {QStringLiteral("resets"), qint64(walked->outerRows - 1)},
         {QStringLiteral("ctids"), qint64(walked->ctids)},
         {QStringLiteral("count"), qint64(walked->visits)},
         {QStringLiteral("first_row_only"), query.firstRowOnly},
         {QStringLiteral("plan"),
          planFits ? planVisitsJson(query, heap, innerFirst, work)
                   : QJsonObject{{QStringLiteral("why"),
                                  QStringLiteral("the two tables have more blocks together than "
                                                 "one block space holds (2^32 - 1)")}}}},
        visitBlocksArgs(work, heap, local)};
}

} // namespace la

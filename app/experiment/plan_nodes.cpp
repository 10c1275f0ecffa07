// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/plan_nodes.h"

#include "input_error.h"
#include "message_text.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>

namespace la {

namespace {

// The figures a node shows beside the server's, in the summary JSON's "model" (or "trace") object.
constexpr std::array<const char*, 5> kRunFigures{"blocks", "hits", "misses", "ios", "resets"};

// The children of node `nodeId`: the nodes one level below it up to the next of its own level.
template <typename Visit> void forEachChild(const ExplainOutput& plan, std::size_t nodeId, Visit visit) {
    const int depth = plan.nodes[nodeId].depth;
    for (std::size_t child = nodeId + 1; child < plan.nodes.size() && plan.nodes[child].depth > depth;
         ++child)
        if (plan.nodes[child].depth == depth + 1)
            visit(plan.nodes[child]);
}

QJsonValue figureJson(const std::optional<std::uint64_t>& figure) {
    return figure ? QJsonValue(qint64(*figure)) : QJsonValue();
}

QJsonValue figureJson(const std::optional<double>& figure) {
    return figure ? QJsonValue(*figure) : QJsonValue();
}

// A figure of an untrusted "nodes" entry (a session's), for the text: "-" unless a number.
QString shownFigure(const QJsonObject& o, const char* key) {
    const QJsonValue value = o.value(QLatin1String(key));
    if (!value.isDouble())
        return QStringLiteral("-");
    // A whole figure without decimals; a session's figure may be any double, so no cast tests it.
    const double figure = value.toDouble();
    return QLocale(QLocale::English).toString(figure, 'f', std::floor(figure) == figure ? 0 : 1);
}

// excerpt() leaves printable ASCII alone and escapes every other byte: fit for a terminal as it is.
QString shownText(const QJsonValue& value, std::size_t limit = 60) {
    return QString::fromStdString(excerpt(value.toString().toStdString(), limit));
}

// "Index Scan on public.t using t_i", of an untrusted "nodes" entry.
QString scanOf(const QJsonObject& node) {
    QString on = shownText(node.value(QStringLiteral("relation")));
    const QString index = shownText(node.value(QStringLiteral("index")));
    if (!index.isEmpty())
        on += (on.isEmpty() ? QString() : QStringLiteral(" ")) + QStringLiteral("using ") + index;
    return QStringLiteral("%1 on %2").arg(shownText(node.value(QStringLiteral("type"))), on);
}

QString nodeName(const QJsonObject& node) {
    return QStringLiteral("node %1 (%2)").arg(shownFigure(node, "node_id"), scanOf(node));
}

// The node's line of the text summary: its EXPLAIN figures and whether it is modelled.
QString nodeLine(const QJsonObject& node) {
    const QJsonObject explain = node.value(QStringLiteral("explain")).toObject();
    return QStringLiteral("node %1 %2: loops %3 (resets %4), shared hit %5 read %6; %7")
        .arg(shownFigure(node, "node_id"), scanOf(node), shownFigure(node, "loops"),
             shownFigure(node, "resets"), shownFigure(explain, "shared_hit"),
             shownFigure(explain, "shared_read"),
             node.value(QStringLiteral("modelled")).toBool()
                 ? QStringLiteral("modelled")
                 : QStringLiteral("not modelled: ") +
                       shownText(node.value(QStringLiteral("why_not_modelled")), 240));
}

} // namespace

bool readsRelation(const ExplainNode& node) {
    static const QStringList types{QStringLiteral("Seq Scan"),         QStringLiteral("Sample Scan"),
                                   QStringLiteral("Index Scan"),       QStringLiteral("Index Only Scan"),
                                   QStringLiteral("Bitmap Heap Scan"), QStringLiteral("Bitmap Index Scan"),
                                   QStringLiteral("Tid Scan"),         QStringLiteral("Tid Range Scan")};
    return types.contains(node.nodeType) && !(node.relation.isEmpty() && node.index.isEmpty());
}

std::optional<std::uint64_t> ownFigure(const ExplainOutput& plan, std::size_t nodeId,
                                       std::optional<std::uint64_t> ExplainNode::*figure) {
    const std::optional<std::uint64_t> all = plan.nodes[nodeId].*figure;
    if (!all)
        return std::nullopt;
    std::uint64_t children = 0;
    forEachChild(plan, nodeId, [&](const ExplainNode& child) { children += (child.*figure).value_or(0); });
    // Each figure is at most kMaxFigureCount, so the sum cannot wrap; a child counting more than its
    // parent (a damaged plan) leaves the parent none of its own.
    return *all > children ? *all - children : 0;
}

QString serverStreamOf(const QString& nodeType, int serverMajor) {
    if (serverMajor < 17)
        return QStringLiteral("none: PostgreSQL %1 has no read stream").arg(serverMajor);
    const auto since = [&](int major) {
        return serverMajor >= major ? QStringLiteral("a read stream")
                                    : QStringLiteral("none: PostgreSQL %1 reads a %2 without a read stream")
                                          .arg(serverMajor)
                                          .arg(nodeType);
    };
    // The heap access method reads sequential and TID range scans through a stream from 17, bitmap
    // heap scans from 18 (docs/recording.md, Plans).
    if (nodeType == QLatin1String("Seq Scan") || nodeType == QLatin1String("Tid Range Scan"))
        return since(17);
    if (nodeType == QLatin1String("Bitmap Heap Scan"))
        return since(18);
    if (nodeType.startsWith(QLatin1String("Index")))
        return QStringLiteral("none: PostgreSQL %1 reads an index scan's heap without a read stream")
            .arg(serverMajor);
    return QStringLiteral("none");
}

QJsonArray planNodesJson(const ExplainOutput& plan, int serverMajor) {
    QJsonArray nodes;
    for (std::size_t id = 0; id < plan.nodes.size(); ++id) {
        const ExplainNode& node = plan.nodes[id];
        if (!readsRelation(node))
            continue;
        const qint64 loops = qint64(node.loops.value_or(1));
        const qint64 rescans = std::max<qint64>(0, loops - 1);
        nodes.append(QJsonObject{
            {QStringLiteral("node_id"), qint64(id)},
            {QStringLiteral("type"), node.nodeType},
            {QStringLiteral("relation"), node.relation},
            {QStringLiteral("index"), node.index},
            {QStringLiteral("loops"), loops},
            {QStringLiteral("resets"), rescans},
            {QStringLiteral("server_stream"), serverStreamOf(node.nodeType, serverMajor)},
            {QStringLiteral("explain"),
             QJsonObject{
                 {QStringLiteral("shared_hit"), figureJson(ownFigure(plan, id, &ExplainNode::sharedHit))},
                 {QStringLiteral("shared_read"), figureJson(ownFigure(plan, id, &ExplainNode::sharedRead))},
                 {QStringLiteral("actual_rows"), figureJson(node.actualRows)},
                 {QStringLiteral("rows_removed_by_filter"), figureJson(node.rowsRemovedByFilter)},
                 {QStringLiteral("heap_fetches"), figureJson(node.heapFetches)}}},
        });
    }
    return nodes;
}

void addPlanNodes(QJsonObject& doc, const QJsonObject& recorded) {
    const QJsonArray nodes = recorded.value(QStringLiteral("nodes")).toArray();
    if (nodes.isEmpty())
        return;
    QJsonArray runs = doc.value(QStringLiteral("runs")).toArray();
    for (QJsonValueRef runRef : runs) {
        QJsonObject run = runRef.toObject();
        const bool observed = run.value(QStringLiteral("trace")).isString();
        QJsonArray shown;
        for (const QJsonValue& value : nodes) {
            if (!value.isObject())
                continue;
            QJsonObject node = value.toObject();
            if (node.value(QStringLiteral("modelled")).toBool()) {
                QJsonObject figures;
                for (const char* key : kRunFigures)
                    figures[QLatin1String(key)] = run.value(QLatin1String(key));
                node[observed ? QStringLiteral("trace") : QStringLiteral("model")] = figures;
            }
            shown.append(node);
        }
        run[QStringLiteral("nodes")] = shown;
        runRef = run;
    }
    doc[QStringLiteral("runs")] = runs;
}

std::string planNodesText(const QJsonObject& recorded) {
    const QJsonArray nodes = recorded.value(QStringLiteral("nodes")).toArray();
    if (nodes.isEmpty())
        return {};
    QString text = QStringLiteral("The plan's nodes that read a relation (EXPLAIN's own figures):\n");
    for (const QJsonValue& value : nodes)
        if (value.isObject())
            text += QStringLiteral("  ") + nodeLine(value.toObject()) + QLatin1Char('\n');
    return text.toStdString();
}

QString modelledNodeText(const QJsonObject& recorded) {
    for (const QJsonValue& value : recorded.value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject node = value.toObject();
        if (node.value(QStringLiteral("modelled")).toBool())
            return QStringLiteral("%1 of a query recorded on PostgreSQL %2")
                .arg(nodeName(node), shownText(recorded.value(QStringLiteral("server_version")), 40));
    }
    return {};
}

std::string requireModelledNode(const QJsonObject& recorded, int nodeId, const std::string& session) {
    QStringList ids;
    QJsonObject chosen, modelled;
    for (const QJsonValue& value : recorded.value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject node = value.toObject();
        if (!node.value(QStringLiteral("node_id")).isDouble())
            continue;
        ids << shownFigure(node, "node_id");
        if (node.value(QStringLiteral("node_id")) == QJsonValue(nodeId))
            chosen = node;
        if (node.value(QStringLiteral("modelled")).toBool())
            modelled = node;
    }
    const std::string where =
        "--node " + std::to_string(nodeId) + ": session '" + excerpt(session, 200) + "'";
    if (ids.isEmpty())
        throw InputError(where + " is no recording of a plan (it was not saved by lookahead record); "
                                 "leave --node out");
    if (chosen.isEmpty())
        throw InputError(where + " has no node " + std::to_string(nodeId) +
                         " that reads a relation; its plan's are " +
                         ids.join(QStringLiteral(", ")).toStdString());
    if (chosen == modelled)
        return nodeLine(chosen).toStdString();
    throw InputError(where + " has no runs of " + nodeName(chosen).toStdString() +
                     ": the recording did not model it (" +
                     shownText(chosen.value(QStringLiteral("why_not_modelled")), 240).toStdString() +
                     "); its runs are of " +
                     (modelled.isEmpty() ? QStringLiteral("no node") : nodeName(modelled)).toStdString() +
                     ". To model node " + std::to_string(nodeId) +
                     ", record the query again with lookahead record --node " + std::to_string(nodeId));
}

} // namespace la

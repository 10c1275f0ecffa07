// SPDX-License-Identifier: GPL-3.0-or-later
// EXPLAIN (FORMAT JSON), as psql prints it (docs/explain-output.md).
#include "experiment/explain_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace la {

namespace {

// `key` of `o`: nothing where it is missing or null, else a number in 0..`most`.
std::optional<double> jsonNumber(const ExplainParser& p, const QJsonObject& o, const char* key, double most) {
    const QJsonValue value = o.value(QLatin1String(key));
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isDouble() || !std::isfinite(value.toDouble()) || value.toDouble() < 0)
        p.fail(QStringLiteral("\"%1\" is not a number of at least 0").arg(QLatin1String(key)));
    if (value.toDouble() > most)
        p.fail(ExplainParser::outOfRange(QStringLiteral("\"%1\"").arg(QLatin1String(key)),
                                         QString::number(value.toDouble(), 'g', 17), most));
    return value.toDouble();
}

// FORMAT JSON: a node object and its "Plans".
void jsonNode(ExplainParser& p, const QJsonObject& o, int depth, ExplainOutput& out) {
    ExplainNode& node = p.addNode(out, depth);
    const auto text = [&](const char* key) { return o.value(QLatin1String(key)).toString(); };
    node.nodeType = text("Node Type");
    node.relation = text("Relation Name");
    node.index = text("Index Name");
    node.schema = text("Schema");
    node.alias = text("Alias");
    node.indexCondition = text("Index Cond");
    node.recheckCondition = text("Recheck Cond");
    node.backward = text("Scan Direction") == QLatin1String("Backward");
    const auto number = [&](const char* key, double most = double(kMaxFigureCount)) {
        return jsonNumber(p, o, key, most);
    };
    const auto count = [&](const char* key) -> std::optional<std::uint64_t> {
        const std::optional<double> value = number(key);
        if (!value)
            return std::nullopt;
        if (*value != std::floor(*value))
            p.fail(QStringLiteral("\"%1\" is not a whole number").arg(QLatin1String(key)));
        return static_cast<std::uint64_t>(*value);
    };
    node.sharedHit = count("Shared Hit Blocks");
    node.sharedRead = count("Shared Read Blocks");
    node.sharedDirtied = count("Shared Dirtied Blocks");
    node.sharedWritten = count("Shared Written Blocks");
    // PostgreSQL 17 split "I/O Read Time" into shared, local and temp.
    node.sharedReadMs = number("Shared I/O Read Time", kMaxExplainMs);
    if (!node.sharedReadMs)
        node.sharedReadMs = number("I/O Read Time", kMaxExplainMs);
    node.actualRows = number("Actual Rows");
    node.loops = count("Actual Loops");
    node.rowsRemovedByFilter = number("Rows Removed by Filter");
    node.heapFetches = number("Heap Fetches");
    node.exactHeapBlocks = count("Exact Heap Blocks");
    node.lossyHeapBlocks = count("Lossy Heap Blocks");
    node.prefetchAvg = number("Average Prefetch Distance");
    node.prefetchMax = count("Max Prefetch Distance");
    node.prefetchCapacity = count("Prefetch Capacity");
    node.ioCount = count("I/O Count");
    node.ioWaits = count("I/O Waits");
    node.ioSize = number("Average I/O Size");
    node.ioInProgress = number("Average I/Os In Progress");
    const QJsonValue plans = o.value(QLatin1String("Plans"));
    if (plans.isUndefined())
        return;
    if (!plans.isArray())
        p.fail(QStringLiteral("\"Plans\" is not a list"));
    for (const QJsonValue& child : plans.toArray()) {
        if (!child.isObject())
            p.fail(QStringLiteral("a plan node is not an object"));
        jsonNode(p, child.toObject(), depth + 1, out);
    }
}

} // namespace

ExplainOutput parseExplainJson(ExplainParser& p, const QStringList& lines) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(lines.join(QLatin1Char('\n')).toUtf8(), &error);
    if (document.isNull())
        p.fail(QStringLiteral("not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    // psql prints a list of one query's object; accept the object alone too.
    const QJsonObject query = document.isArray() ? document.array().at(0).toObject() : document.object();
    const QJsonValue plan = query.value(QLatin1String("Plan"));
    if (!plan.isObject())
        p.fail(QStringLiteral("no \"Plan\" object in it"));
    ExplainOutput out;
    out.format = ExplainOutput::Format::Json;
    jsonNode(p, plan.toObject(), 0, out);
    out.planningMs = jsonNumber(p, query, "Planning Time", kMaxExplainMs);
    out.executionMs = jsonNumber(p, query, "Execution Time", kMaxExplainMs);
    return out;
}

} // namespace la

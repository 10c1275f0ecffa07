// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/plan_outline.h"

#include "experiment/explain_output.h"
#include "experiment/plan_nodes.h"
#include "experiment/reconciliation.h"
#include "figure_limits.h"
#include "input_error.h"
#include "summary_fields.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

#include <cmath>

namespace la {

namespace {

QString count(double n) {
    return QLocale(QLocale::English).toString(n, 'f', 0);
}

// A figure of an untrusted object: a number in range, or nothing.
std::optional<double> figureIn(const QJsonObject& o, const char* key) {
    const QJsonValue value = o.value(QLatin1String(key));
    if (!value.isDouble() || !std::isfinite(value.toDouble()) || value.toDouble() < 0 ||
        value.toDouble() > double(kMaxFigureCount))
        return std::nullopt;
    return value.toDouble();
}

template <typename T> std::optional<double> asDouble(const std::optional<T>& figure) {
    return figure ? std::optional<double>(double(*figure)) : std::nullopt;
}

// A recorded node's id, if it is a place in a plan of `size` nodes.
std::optional<std::int64_t> nodeIdIn(const QJsonObject& node, std::size_t size) {
    const std::optional<double> id = figureIn(node, "node_id");
    if (!id || std::floor(*id) != *id || *id >= double(size))
        return std::nullopt;
    return std::int64_t(*id);
}

// The plan the recording's nodes were numbered in: the untraced run's where there was one.
std::optional<ExplainOutput> recordedPlan(const QJsonObject& recorded) {
    const QJsonObject plans = recorded.value(QStringLiteral("plan")).toObject();
    const QJsonValue plan = plans.contains(QStringLiteral("untraced"))
                                ? plans.value(QStringLiteral("untraced"))
                                : plans.value(QStringLiteral("traced"));
    const QByteArray text = plan.isArray()    ? QJsonDocument(plan.toArray()).toJson(QJsonDocument::Compact)
                            : plan.isString() ? plan.toString().toUtf8()
                                              : QByteArray();
    if (text.isEmpty())
        return std::nullopt;
    try {
        ExplainOutput parsed = parseExplainOutput(text, QStringLiteral("the recorded plan"));
        if (!parsed.nodes.empty())
            return parsed;
    } catch (const InputError&) {
        // A damaged plan: the nodes are listed without it.
    }
    return std::nullopt;
}

// A recorded node's own fields (the figures are EXPLAIN's own, as the recording kept them).
void takeRecordedNode(PlanRow& row, const QJsonObject& node) {
    row.scan = true;
    row.modelled = node.value(QStringLiteral("modelled")).toBool();
    row.serverStream = node.value(QStringLiteral("server_stream")).toString();
    row.whyNotModelled = node.value(QStringLiteral("why_not_modelled")).toString();
    const QJsonObject explain = node.value(QStringLiteral("explain")).toObject();
    row.sharedHit = figureIn(explain, "shared_hit");
    row.sharedRead = figureIn(explain, "shared_read");
    row.actualRows = figureIn(explain, "actual_rows");
    row.loops = figureIn(node, "loops");
    row.resets = figureIn(node, "resets");
}

// Every node of `plan`, with the recording's scan nodes' fields; nothing where these do not match
// the plan (a damaged session).
std::vector<PlanRow> treeRows(const ExplainOutput& plan, const QJsonArray& nodes) {
    std::vector<PlanRow> rows;
    for (std::size_t id = 0; id < plan.nodes.size(); ++id) {
        const ExplainNode& node = plan.nodes[id];
        PlanRow row;
        row.nodeId = std::int64_t(id);
        row.depth = node.depth;
        row.type = node.nodeType;
        row.relation = node.relation;
        row.index = node.index;
        row.sharedHit = asDouble(ownFigure(plan, id, &ExplainNode::sharedHit));
        row.sharedRead = asDouble(ownFigure(plan, id, &ExplainNode::sharedRead));
        row.actualRows = node.actualRows;
        row.loops = asDouble(node.loops);
        if (row.loops)
            row.resets = std::max(0.0, *row.loops - 1);
        row.ioCount = asDouble(node.ioCount);
        row.ioSize = node.ioSize;
        row.prefetchAvg = node.prefetchAvg;
        rows.push_back(row);
    }
    for (const QJsonValue& value : nodes) {
        const QJsonObject node = value.toObject();
        const std::optional<std::int64_t> id = nodeIdIn(node, rows.size());
        if (!id || rows[std::size_t(*id)].type != node.value(QStringLiteral("type")).toString())
            return {};
        takeRecordedNode(rows[std::size_t(*id)], node);
    }
    return rows;
}

// The recording's scan nodes alone, where the plan is not kept.
std::vector<PlanRow> flatRows(const QJsonArray& nodes) {
    std::vector<PlanRow> rows;
    for (const QJsonValue& value : nodes) {
        if (!value.isObject())
            continue;
        const QJsonObject node = value.toObject();
        PlanRow row;
        row.nodeId = nodeIdIn(node, std::size_t(kMaxFigureCount)).value_or(-1);
        row.type = node.value(QStringLiteral("type")).toString();
        row.relation = node.value(QStringLiteral("relation")).toString();
        row.index = node.value(QStringLiteral("index")).toString();
        takeRecordedNode(row, node);
        rows.push_back(row);
    }
    return rows;
}

// The modelled node's figures in each run, and whether the model's misses are EXPLAIN's shared read
// of it (or, where the run was reconciled with the trace too, whether that reconciliation agrees).
void markModelled(PlanRow& row, const Experiment& experiment, const std::vector<RunSummary>& summaries) {
    const SummaryField& meanIo = summaryFieldNamed("mean_read_blocks");
    bool modelRan = false, agrees = true;
    QStringList said;
    for (std::size_t run = 0; run < summaries.size() && run < experiment.runs.size(); ++run) {
        const RunSummary& summary = summaries[run];
        const bool observed = experiment.runs[run].observed != nullptr;
        row.runs.push_back({runName(experiment, run), observed, summary.hits, summary.misses, summary.ios,
                            summary.resets, figureNumber(meanIo, summary)});
        if (observed)
            continue;
        modelRan = true;
        const bool reconciled = !reconciliationObject(summary.reconciliation).isEmpty();
        const ReconciliationLine line = reconciliationLine(summary.reconciliation);
        const bool same =
            reconciled ? !line.disagrees : row.sharedRead && double(summary.misses) == *row.sharedRead;
        agrees = agrees && same;
        said << QStringLiteral("%1 missed %2 blocks")
                    .arg(runName(experiment, run), count(double(summary.misses)));
        if (reconciled && !same)
            said << line.text;
    }
    if (!modelRan) {
        row.markText = QStringLiteral("the model has not run yet");
        return;
    }
    row.mark = agrees ? PlanMark::Agrees : PlanMark::Differs;
    const QString read = row.sharedRead
                             ? QStringLiteral("EXPLAIN's shared read is %1").arg(count(*row.sharedRead))
                             : QStringLiteral("EXPLAIN printed no shared read");
    row.markText = (agrees ? QStringLiteral("agrees: ") : QStringLiteral("differs: ")) + read +
                   QStringLiteral("; ") + said.join(QStringLiteral("; "));
}

} // namespace

QString runName(const Experiment& experiment, std::size_t run) {
    const QString label =
        run < experiment.runs.size() ? QString::fromStdString(experiment.runs[run].label) : QString();
    return (run % 2 == 0 ? QStringLiteral("A: ") : QStringLiteral("B: ")) + label;
}

PlanOutline planOutline(const Experiment& experiment, const std::vector<RunSummary>& summaries) {
    PlanOutline outline;
    const QJsonObject& recorded = experiment.recorded;
    const QJsonArray nodes = recorded.value(QStringLiteral("nodes")).toArray();
    if (nodes.isEmpty())
        return outline;
    if (const std::optional<ExplainOutput> plan = recordedPlan(recorded))
        outline.rows = treeRows(*plan, nodes);
    if (outline.rows.empty()) {
        outline.rows = flatRows(nodes);
        outline.note = recorded.value(QStringLiteral("plan_left_out")).toBool()
                           ? QStringLiteral("The session left the plan out (too long to keep): only the "
                                            "nodes that read a relation are listed, not how they nest.")
                           : QStringLiteral("The recording kept no plan that matches its nodes: only the "
                                            "nodes that read a relation are listed, not how they nest.");
    }
    for (std::size_t i = 0; i < outline.rows.size(); ++i) {
        PlanRow& row = outline.rows[i];
        if (!row.scan)
            continue;
        if (!row.modelled || outline.modelledRow >= 0) {
            row.modelled = false; // one node is modelled: the first a damaged session flags
            row.mark = PlanMark::NotModelled;
            row.markText =
                QStringLiteral("not modelled: ") +
                (row.whyNotModelled.isEmpty() ? QStringLiteral("another node is") : row.whyNotModelled);
            continue;
        }
        outline.modelledRow = int(i);
        markModelled(row, experiment, summaries);
    }
    return outline;
}

} // namespace la

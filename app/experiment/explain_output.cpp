// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/explain_output.h"

#include "experiment/document_file.h"
#include "experiment/explain_parser.h"
#include "input_error.h"
#include "message_text.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace la {

namespace {

bool isScan(const ExplainNode& node) {
    return node.nodeType.endsWith(QLatin1String(" Scan")) &&
           node.nodeType != QLatin1String("Bitmap Index Scan") && !node.relation.isEmpty();
}

QString unqualified(const QString& name) {
    return name.mid(name.lastIndexOf(QLatin1Char('.')) + 1);
}

} // namespace

const ExplainNode* ExplainOutput::scanOf(const QString& relation) const {
    const ExplainNode* found = nullptr;
    for (const ExplainNode& node : nodes) {
        if (!isScan(node) || (!relation.isEmpty() && unqualified(node.relation) != unqualified(relation)))
            continue;
        if (found != nullptr)
            return nullptr; // ambiguous: the caller must name it
        found = &node;
    }
    return found;
}

ExplainOutput parseExplainOutput(const QByteArray& bytes, const QString& fileName) {
    ExplainParser parser(fileName);
    if (bytes.size() > kMaxExplainBytes)
        parser.fail(QStringLiteral("larger than %1 MiB").arg(kMaxExplainBytes >> 20));
    const QStringList lines = planLines(bytes);
    for (const QString& line : lines) {
        const QString text = line.trimmed();
        if (text.isEmpty())
            continue;
        return text.startsWith(QLatin1Char('[')) || text.startsWith(QLatin1Char('{'))
                   ? parseExplainJson(parser, lines)
                   : parseExplainText(parser, lines);
    }
    parser.fail(QStringLiteral("it is empty"));
}

const ExplainNode& observedScanOf(const ExplainOutput& plan, const QString& fileName) {
    if (const ExplainNode* scan = plan.scanOf(QString()))
        return *scan;
    QStringList scans;
    for (const ExplainNode& node : plan.nodes)
        if (isScan(node))
            scans << node.nodeType + QStringLiteral(" on ") + node.relation;
    const QString name = QString::fromStdString(excerpt(fileName.toStdString()));
    if (scans.isEmpty())
        throw InputError(
            QStringLiteral("EXPLAIN output %1: no scan of a table in the plan (give the EXPLAIN of the "
                           "traced query)")
                .arg(name)
                .toStdString());
    throw InputError(
        QStringLiteral("EXPLAIN output %1: the plan scans %2 tables (%3); an observed run compares "
                       "one scan: explain a query with one")
            .arg(name)
            .arg(scans.size())
            .arg(QString::fromStdString(excerpt(scans.join(QStringLiteral(", ")).toStdString())))
            .toStdString());
}

QJsonObject serverExplainJson(const ExplainOutput& plan, const ExplainNode& scan) {
    QJsonObject o;
    const auto put = [&o](const char* key, const auto& figure) {
        o[QLatin1String(key)] = figure ? QJsonValue(static_cast<double>(*figure)) : QJsonValue();
    };
    o[QStringLiteral("node")] = scan.nodeType;
    o[QStringLiteral("relation")] = scan.relation;
    o[QStringLiteral("index")] = scan.index;
    o[QStringLiteral("backward")] = scan.backward;
    o[QStringLiteral("format")] =
        plan.format == ExplainOutput::Format::Json ? QStringLiteral("json") : QStringLiteral("text");
    put("shared_hit", scan.sharedHit);
    put("shared_read", scan.sharedRead);
    put("shared_read_ms", scan.sharedReadMs);
    put("prefetch_avg", scan.prefetchAvg);
    put("prefetch_max", scan.prefetchMax);
    put("prefetch_capacity", scan.prefetchCapacity);
    put("io_count", scan.ioCount);
    put("io_waits", scan.ioWaits);
    put("io_size_avg", scan.ioSize);
    put("io_inprogress_avg", scan.ioInProgress);
    put("execution_ms", plan.executionMs);
    // A Bitmap Heap Scan's buffers count its Bitmap Index Scans' (the plan's nodes below it): their
    // own figures tell the index's pages apart (docs/explain-output.md).
    if (scan.nodeType == QLatin1String("Bitmap Heap Scan")) {
        const auto at = std::find_if(plan.nodes.begin(), plan.nodes.end(),
                                     [&scan](const ExplainNode& node) { return &node == &scan; });
        std::optional<std::uint64_t> read, hit;
        QStringList indexes;
        for (auto node = at == plan.nodes.end() ? at : at + 1;
             node != plan.nodes.end() && node->depth > scan.depth; ++node) {
            if (node->nodeType != QLatin1String("Bitmap Index Scan"))
                continue;
            indexes << node->index;
            if (node->sharedRead || node->sharedHit)
                read = read.value_or(0) + node->sharedRead.value_or(0);
            if (node->sharedHit)
                hit = hit.value_or(0) + *node->sharedHit;
        }
        if (!indexes.isEmpty()) {
            o[QStringLiteral("bitmap_index")] = indexes.join(QStringLiteral(", "));
            put("index_shared_read", read);
            put("index_shared_hit", hit);
        }
    }
    return o;
}

QString describeServerExplain(const QJsonObject& explain) {
    const auto text = [&](const char* key) {
        const QJsonValue figure = explain.value(QLatin1String(key));
        return figure.isDouble() ? QString::number(figure.toDouble(), 'g', 15) : QStringLiteral("-");
    };
    const QString node = explain.value(QStringLiteral("node")).toString();
    const QString relation = explain.value(QStringLiteral("relation")).toString();
    const QString on = relation.isEmpty() ? QString() : QStringLiteral(" on ") + relation;
    const QString shown = QString::fromStdString(excerpt(QString(node + on).toStdString()));
    const auto has = [&](const char* key) { return explain.value(QLatin1String(key)).isDouble(); };
    // What the server measured; what it did not is left out, and why said once.
    QStringList figures;
    QString unmeasured;
    if (has("shared_hit") || has("shared_read"))
        // Text output leaves a zero out: "shared hit=5" read nothing.
        figures << QStringLiteral("Buffers shared hit=%1 read=%2")
                       .arg(has("shared_hit") ? text("shared_hit") : QStringLiteral("0"),
                            has("shared_read") ? text("shared_read") : QStringLiteral("0"));
    else
        unmeasured = QStringLiteral("no Buffers: it ran without BUFFERS");
    if (has("shared_read_ms"))
        figures << QStringLiteral("I/O Timings shared read=%1 ms").arg(text("shared_read_ms"));
    else if (explain.value(QStringLiteral("shared_read")).toDouble() > 0)
        unmeasured = QStringLiteral("no I/O Timings: the server's track_io_timing was off");
    if (has("execution_ms"))
        figures << QStringLiteral("Execution Time %1 ms").arg(text("execution_ms"));
    QString lines = QStringLiteral("  PostgreSQL's EXPLAIN (%1%2): %3%4\n")
                        .arg(shown,
                             explain.value(QStringLiteral("backward")).toBool() ? QStringLiteral(", backward")
                                                                                : QString(),
                             figures.join(QStringLiteral(", ")),
                             unmeasured.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unmeasured));
    if (explain.value(QStringLiteral("prefetch_avg")).isDouble())
        lines += QStringLiteral("  PostgreSQL's Prefetch: avg=%1 max=%2 capacity=%3\n")
                     .arg(text("prefetch_avg"), text("prefetch_max"), text("prefetch_capacity"));
    if (explain.value(QStringLiteral("io_count")).isDouble())
        lines += QStringLiteral("  PostgreSQL's I/O: count=%1 waits=%2 size=%3 in-progress=%4\n")
                     .arg(text("io_count"), text("io_waits"), text("io_size_avg"), text("io_inprogress_avg"));
    return lines;
}

ExplainOutput readExplainOutput(const QString& path) {
    const std::string text =
        readDocumentFile(path.toStdString(), "EXPLAIN output", std::uint64_t(kMaxExplainBytes),
                         "give the EXPLAIN (ANALYZE, BUFFERS) output of the traced query, saved to a file");
    return parseExplainOutput(QByteArray::fromStdString(text), path);
}

bool takeServerWaits(const ExplainNode& scan, RunSummary& observed) {
    if (!scan.ioWaits)
        return false;
    observed.waits = *scan.ioWaits;
    observed.waitsUnknown = false;
    observed.waitTimeUnknown = !scan.sharedReadMs;
    observed.waitNs = scan.sharedReadMs ? static_cast<std::int64_t>(*scan.sharedReadMs * 1e6) : 0;
    observed.waitsScope =
        scan.sharedReadMs
            ? "PostgreSQL's own count (EXPLAIN's I/O waits=), their time its I/O Timings shared read"
            : "PostgreSQL's own count (EXPLAIN's I/O waits=); their time is not in its output";
    return true;
}

void takeServerExplain(const QString& path, RunSummary& observed) {
    const ExplainOutput plan = readExplainOutput(path);
    const ExplainNode& scan = observedScanOf(plan, path);
    takeServerWaits(scan, observed);
    observed.serverExplain =
        QJsonDocument(serverExplainJson(plan, scan)).toJson(QJsonDocument::Compact).toStdString();
}

QByteArray recordedExplain(const QJsonObject& recorded) {
    const QJsonObject plans = recorded.value(QStringLiteral("plan")).toObject();
    // The modelled node alone where the recording kept it: the plan the replay compared with.
    const QJsonValue plan = plans.contains(QStringLiteral("node")) ? plans.value(QStringLiteral("node"))
                            : plans.contains(QStringLiteral("untraced"))
                                ? plans.value(QStringLiteral("untraced"))
                                : plans.value(QStringLiteral("traced"));
    if (plan.isArray())
        return QJsonDocument(plan.toArray()).toJson(QJsonDocument::Compact);
    return plan.toString().toUtf8();
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_rows.h"

#include "block_size.h"
#include "figure_text.h"
#include "number_text.h"
#include "observed/observed_summary.h"
#include "repeat_stats.h"
#include "summary_fields.h"
#include "tooltips.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>

namespace la {

namespace {

// A row's cell for a run, given the figure the row is about.
using Cell = std::function<QString(const RunSummary&, const SummaryField&)>;

// The figure's text and its unit ("12.5 %"); "–" alone where there is no number.
QString withUnit(const RunSummary& s, const SummaryField& field) {
    const QString text = figureText(s, field.name);
    if (field.unit.empty() || std::isnan(figureNumber(field, s)))
        return text;
    return text + QLatin1Char(' ') + QString::fromUtf8(field.unit.data(), qsizetype(field.unit.size()));
}

// A repeated run's range of the figure over its repeats, " (a–b)"; empty for a run that went once.
QString spread(const RunSummary& s, const SummaryField& field) {
    const QString range = rangeText(s, field.name);
    return range.isEmpty() ? range : QStringLiteral(" (%1)").arg(range);
}

// A figure that varies with real I/O: for a repeated run the median over its repeats (with its
// unit, if any) and their range, "median 165 (141–177)", the figure the verdict names too
// (docs/repeats.md); for a run that went once, `value`.
QString varying(const RunSummary& s, const SummaryField& field, const QString& value) {
    if (s.repeats.size() < 2)
        return value;
    const QString unit =
        field.unit.empty()
            ? QString()
            : QLatin1Char(' ') + QString::fromUtf8(field.unit.data(), qsizetype(field.unit.size()));
    return QStringLiteral("median %1%2%3").arg(medianText(s, field.name), unit, spread(s, field));
}

// The run time, for a repeated run the median and the range of all: "median 412 ms (398 ms–430 ms)".
QString runTime(const RunSummary& s, const SummaryField& field) {
    const QString time = formatDuration(static_cast<double>(s.runtimeNs));
    const auto extremes = repeatExtremes(s, field.name);
    if (!extremes)
        return time;
    return QStringLiteral("median %1 (%2–%3)")
        .arg(formatDuration(medianFigure(s, field.name)),
             formatDuration(static_cast<double>(extremes->first->runtimeNs)),
             formatDuration(static_cast<double>(extremes->second->runtimeNs)));
}

// A cell of figures: `line` with each {name} replaced by that figure's text.
Cell figures(std::string_view line) {
    return [line](const RunSummary& s, const SummaryField&) { return fillFigures(line, s); };
}

QString ioMethod(const RunSummary& s, const SummaryField&) {
    return fillFigures(
        s.fallbackReason.empty() ? "{io_method_used}" : "{io_method_used} (fallback: {fallback_reason})", s);
}

// The worker pool at the start and the end of the run, and its most at once; "–" without one.
QString ioWorkers(const RunSummary& s, const SummaryField&) {
    return s.ioWorkersPeak > 0
               ? fillFigures("{io_workers_start} → {io_workers_end} (most {io_workers_peak})", s)
               : QStringLiteral("–");
}

QString blocks(const RunSummary& s, const SummaryField&) {
    return fillFigures(isObservedRun(s) ? "{blocks} read" : "{blocks} ({hits} / {misses})", s);
}

QString meanReadSize(const RunSummary& s, const SummaryField& field) {
    return QStringLiteral("%1 (%2)").arg(withUnit(s, field),
                                         formatBytes(figureNumber(field, s) * kBlockSize));
}

// An observed run's reads served by the page cache and by the device, told apart by their durations
// (docs/trace-import.md §5): at a threshold, or all of one kind. A model does not tell them apart.
QString pageCacheReads(const RunSummary& s, const SummaryField&) {
    if (!s.pageCacheKnown)
        return isObservedRun(s) ? QStringLiteral("– (no read durations in the trace)") : QStringLiteral("–");
    const QString reads = fillFigures("{page_cache_reads} / {device_reads}", s);
    if (s.pageCacheThresholdNs)
        return reads + QStringLiteral(" (split at %1)").arg(formatDuration(*s.pageCacheThresholdNs));
    if (s.pageCacheBasis == kKernelCaptureSourceBasis)
        return reads + fillFigures(" (kernel capture; device read-ahead reads {device_readahead_reads})", s);
    return reads + (s.pageCacheReads > 0 ? QStringLiteral(" (all alike: page cache)")
                                         : QStringLiteral(" (all alike: device)"));
}

// The mean distance per buffer handed out; for a run that rescans, also without the buffers handed
// out after each scan's end (at distance 0), which short rescans are mostly made of.
QString distanceMean(const RunSummary& s, const SummaryField&) {
    if (s.resets == 0 || s.blocksAfterEnd == 0)
        return fillFigures("{distance_mean} (max {distance_max})", s);
    return fillFigures("{distance_mean} (max {distance_max}); {distance_mean_ahead} while looking ahead", s);
}

QString collapses(const RunSummary& s, const SummaryField&) {
    return s.collapseIntervals.empty() ? QStringLiteral("none")
                                       : fillFigures("{collapse_intervals} ({collapsed_blocks} blocks)", s);
}

// explain.c's text, without its labels; "–" where it prints no such line. An index scan's figures
// are marked: a plain PostgreSQL 19 prints none for it.
QString explainLine(const RunSummary& s, const std::string& line, std::size_t label) {
    if (line.empty())
        return QStringLiteral("–");
    const QString text = QString::fromStdString(line.substr(label));
    return s.pgIndex ? text + QStringLiteral(" (index scan: patch only)") : text;
}

QString explainNote(const std::vector<const RunSummary*>& runs) {
    const bool indexScan =
        std::any_of(runs.begin(), runs.end(), [](const RunSummary* s) { return s && s->pgIndex; });
    return QString::fromStdString(explainIoScopeNote(indexScan));
}

// An observed run's RunSummary::serverExplain as lines (docs/explain-output.md); a model's hits and
// misses as the server would print them, for the row beside it.
QString serverExplain(const RunSummary& summary, const SummaryField&) {
    if (!isObservedRun(summary))
        return QStringLiteral("shared hit=%1 read=%2 (its hits and misses)")
            .arg(summary.hits)
            .arg(summary.misses);
    if (summary.serverExplain.empty())
        return QStringLiteral("– (no EXPLAIN given)");
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(summary.serverExplain)).object();
    const auto figure = [&o](const char* key) {
        const QJsonValue value = o.value(QLatin1String(key));
        return value.isUndefined() || value.isNull() ? QStringLiteral("-") : value.toVariant().toString();
    };
    const auto measured = [&o](const char* key) {
        const QJsonValue value = o.value(QLatin1String(key));
        return !value.isUndefined() && !value.isNull();
    };
    // What the server did not measure is left out, and why said once. Text output leaves a zero
    // count out: "shared hit=5" read nothing.
    const bool buffers = measured("shared_hit") || measured("shared_read");
    const auto count = [&](const char* key) { return measured(key) ? figure(key) : QStringLiteral("0"); };
    QStringList lines{buffers ? QStringLiteral("%1: shared hit=%2 read=%3")
                                    .arg(o.value(QLatin1String("node")).toString(), count("shared_hit"),
                                         count("shared_read"))
                              : QStringLiteral("%1: no Buffers (it ran without BUFFERS)")
                                    .arg(o.value(QLatin1String("node")).toString())};
    if (measured("shared_read_ms"))
        lines << QStringLiteral("I/O Timings read=%1 ms").arg(figure("shared_read_ms"));
    else if (o.value(QLatin1String("shared_read")).toDouble() > 0)
        lines << QStringLiteral("no I/O Timings (the server's track_io_timing was off)");
    if (!o.value(QLatin1String("prefetch_avg")).isNull())
        lines << QStringLiteral("Prefetch avg=%1 max=%2 capacity=%3")
                     .arg(figure("prefetch_avg"), figure("prefetch_max"), figure("prefetch_capacity"));
    if (!o.value(QLatin1String("io_count")).isNull())
        lines << QStringLiteral("I/O count=%1 waits=%2 size=%3 in-progress=%4")
                     .arg(figure("io_count"), figure("io_waits"), figure("io_size_avg"),
                          figure("io_inprogress_avg"));
    return lines.join(QStringLiteral("; "));
}

QString state(const RunSummary& s, const SummaryField&) {
    if (!s.error.empty())
        return QStringLiteral("error: %1").arg(QString::fromStdString(s.error));
    return s.cancelled ? QStringLiteral("stopped") : QStringLiteral("complete");
}

// A row: the figure it is about (the summary fields' table names it, and says whether a trace has
// it), its label if not the figure's own, and its cell if not the figure's text and unit.
struct RowDefinition {
    std::string_view figure;
    QString label;
    Cell cell;
};

bool isResetFigure(std::string_view figure) {
    return figure == "resets" || figure == "distance_after_reset_mean" || figure == "blocks_after_end";
}

const std::vector<RowDefinition>& rowDefinitions() {
    static const std::vector<RowDefinition> rows{
        {"policy", {}, {}},
        {"error", QStringLiteral("Outcome"), state},
        {"io_method_used", {}, ioMethod},
        {"io_workers_peak", QStringLiteral("I/O workers"), ioWorkers},
        {"blocks", QStringLiteral("Blocks (hits / misses)"), blocks},
        {"ios", {}, {}},
        {"mean_read_blocks", {}, meanReadSize},
        {"page_cache_reads", QStringLiteral("Reads (page cache / device)"), pageCacheReads},
        {"read_throughput",
         {},
         [](const RunSummary& s, const SummaryField& field) -> QString {
             return varying(s, field, withUnit(s, field));
         }},
        {"waits", QStringLiteral("Waits (time)"),
         [](const RunSummary& s, const SummaryField& field) {
             if (s.waitsUnknown)
                 return QStringLiteral("– (not in the trace)");
             const QString time = s.waitTimeUnknown ? QStringLiteral("time unknown")
                                                    : formatDuration(medianFigure(s, "wait_ns"));
             const QString waits =
                 varying(s, field, figureText(s, field.name)) + QStringLiteral(" (%1)").arg(time);
             return s.waitsScope.empty() ? waits
                                         : waits + QStringLiteral(": ") + figureText(s, "waits_scope");
         }},
        {"runtime_ns", {}, runTime},
        {"distance_mean", {}, distanceMean},
        {"resets", {}, {}},
        {"distance_after_reset_mean", {}, {}},
        {"blocks_after_end", {}, {}},
        {"frac_distance_le2", {}, {}},
        {"collapse_intervals", {}, collapses},
        {"explain_io", QStringLiteral("EXPLAIN (IO) Prefetch"),
         [](const RunSummary& s, const SummaryField&) {
             return explainLine(s, explainPrefetchLine(s.explainIo), std::string_view("Prefetch: ").size());
         }},
        {"explain_io", QStringLiteral("EXPLAIN (IO) I/O"),
         [](const RunSummary& s, const SummaryField&) {
             return explainLine(s, explainIoLine(s.explainIo), std::string_view("I/O: ").size());
         }},
        {"server_explain", {}, serverExplain},
        {"max_pinned", QStringLiteral("max_pinned / io_combine_limit"),
         figures("{max_pinned} / {io_combine_limit}")},
    };
    return rows;
}

} // namespace

std::vector<SummaryRow> summaryRows(const std::vector<const RunSummary*>& runs) {
    std::vector<SummaryRow> rows;
    // The server's own figures mean something only beside an observed run.
    const bool observed = std::any_of(runs.begin(), runs.end(),
                                      [](const RunSummary* run) { return run && isObservedRun(*run); });
    // A run's rescans and the distance they start at, only beside a run that rescanned.
    const bool resets =
        std::any_of(runs.begin(), runs.end(), [](const RunSummary* run) { return run && run->resets > 0; });
    for (const RowDefinition& definition : rowDefinitions()) {
        if (definition.figure == "server_explain" && !observed)
            continue;
        if (isResetFigure(definition.figure) && !resets)
            continue;
        const SummaryField& field = summaryFieldNamed(definition.figure);
        SummaryRow row{definition.label, {}, {}};
        if (definition.figure == "explain_io")
            row.note = explainNote(runs);
        if (definition.figure == "distance_mean")
            row.note = QStringLiteral(
                "Taken as each buffer is handed out. A buffer handed out after its scan's end counts at "
                "distance 0: PostgreSQL's stream stops looking ahead there until its reset "
                "(docs/read-stream-model.md §1). \"While looking ahead\" leaves those buffers out.");
        if (definition.figure == "blocks_after_end")
            row.note = QStringLiteral("Buffers handed out at distance 0, between a scan's end and its reset");
        if (definition.figure == "distance_after_reset_mean")
            row.note = QStringLiteral("The distance each reset starts the stream again at: 1 in PostgreSQL "
                                      "17-19, the distance before it where it is restored");
        if (row.label.isEmpty())
            row.label = QString::fromUtf8(field.label.data(), qsizetype(field.label.size()));
        for (const RunSummary* run : runs) {
            if (!run)
                row.values.push_back(QStringLiteral("…"));
            else if (field.has(kNotInTrace) && isObservedRun(*run))
                row.values.push_back(QStringLiteral("– (not in a trace)"));
            else
                row.values.push_back(definition.cell ? definition.cell(*run, field) : withUnit(*run, field));
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/summary_text.h"

#include "experiment/plan_nodes.h"
#include "figure_text.h"
#include "message_text.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QString>

#include <optional>
#include <string_view>

namespace la {

namespace {

// The lines every run prints; {name} is that figure's text.
constexpr std::string_view kFigureLines[] = {
    "  blocks {blocks}  hits {hits}  misses {misses}",
    "  reads {ios} (mean {mean_read_blocks} blocks)  device reads {device_reads}  {bytes_read} MiB",
    "  read sizes (blocks:count){io_size_hist}",
    "  waits {waits} ({wait_ns} ms)  run time {runtime_ns} s  ({io_method_used})",
    "  distance mean {distance_mean} (time-weighted {distance_time_mean}) max {distance_max}, at <= 2 for "
    "{frac_distance_le2}% of blocks; pinned mean {pinned_mean}, in flight mean {in_flight_mean} "
    "(max_pinned {max_pinned})",
};

// A modelled run's shared buffers: the pool, the strategy the stream read through, what stayed.
constexpr std::string_view kPoolLine = "  shared buffers {shared_buffers} blocks, strategy {strategy}";
constexpr std::string_view kRingLine = " (a ring of {ring_buffers} buffers)";
constexpr std::string_view kResidentLine =
    "; {resident_after} of the relation's blocks resident after the run";

// A figure of PostgreSQL's EXPLAIN (as the summary JSON's "postgresql_explain" keeps it), or "-".
QString serverFigure(const QJsonObject& explain, const char* key, int decimals) {
    const QJsonValue value = explain.value(QLatin1String(key));
    if (!value.isDouble())
        return QStringLiteral("-");
    return decimals == 0 ? QLocale(QLocale::English).toString(static_cast<qulonglong>(value.toDouble()))
                         : QString::number(value.toDouble(), 'f', decimals);
}

QString modelCount(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

std::string besideServer(const Experiment& experiment, const std::vector<RunSummary>& summaries) {
    // The server's figures are the observed run's (its EXPLAIN), or a recorded model's own; the
    // model is the last run.
    if (summaries.empty() || experiment.runs.size() != summaries.size())
        return {};
    const RunSummary& model = summaries.back();
    const std::string& kept =
        summaries.front().serverExplain.empty() ? model.serverExplain : summaries.front().serverExplain;
    if (kept.empty() || isObservedRun(model))
        return {};
    const QJsonObject server = QJsonDocument::fromJson(QByteArray::fromStdString(kept)).object();
    const ExplainIo& io = model.explainIo;
    const bool ioKnown = io.ioCount > 0;
    const auto decimals = [](double value) { return QString::number(value, 'f', 2); };
    struct Row {
        const char* label;
        QString server;
        QString model;
    };
    const Row rows[] = {
        {"shared hit", serverFigure(server, "shared_hit", 0), modelCount(model.hits)},
        {"shared read", serverFigure(server, "shared_read", 0), modelCount(model.misses)},
        {"I/O count", serverFigure(server, "io_count", 0),
         ioKnown ? modelCount(io.ioCount) : QStringLiteral("-")},
        {"I/O waits", serverFigure(server, "io_waits", 0), modelCount(model.waits)},
        {"I/O size avg", serverFigure(server, "io_size_avg", 2),
         ioKnown ? decimals(io.ioSizeAvg()) : QStringLiteral("-")},
        {"I/O in-progress avg", serverFigure(server, "io_inprogress_avg", 2),
         ioKnown ? decimals(io.ioInProgressAvg()) : QStringLiteral("-")},
        {"prefetch avg", serverFigure(server, "prefetch_avg", 2),
         io.prefetchCount > 0 ? decimals(io.prefetchAvg()) : QStringLiteral("-")},
    };
    const QString scan = server.value(QStringLiteral("node")).toString() + QStringLiteral(" on ") +
                         server.value(QStringLiteral("relation")).toString();
    const QString node = QString::fromStdString(excerpt(scan.toStdString()));
    QString text = QStringLiteral("PostgreSQL's EXPLAIN (%1) beside the model (%2):\n")
                       .arg(node, QString::fromStdString(printable(experiment.runs.back().label)));
    text += QStringLiteral("  %1 %2 %3\n")
                .arg(QString(), -20)
                .arg(QStringLiteral("PostgreSQL"), 12)
                .arg(QStringLiteral("model"), 12);
    for (const Row& row : rows)
        if (row.server != QLatin1String("-") || row.model != QLatin1String("-"))
            text += QStringLiteral("  %1 %2 %3\n")
                        .arg(QLatin1String(row.label), -20)
                        .arg(row.server, 12)
                        .arg(row.model, 12);
    if (server.value(QStringLiteral("index_shared_read")).isDouble())
        text += QStringLiteral("  (the heap scan's shared read counts its Bitmap Index Scan's %1)\n")
                    .arg(serverFigure(server, "index_shared_read", 0));
    else if (!server.value(QStringLiteral("index")).toString().isEmpty())
        text += QStringLiteral("  (an index scan's shared hit and read count its index's pages too)\n");
    return text.toStdString();
}

} // namespace

std::string describeBesideServer(const Experiment& experiment, const std::vector<RunSummary>& summaries) {
    return planNodesText(experiment.recorded) + besideServer(experiment, summaries);
}

std::string verdictLines(const RunsVerdict& verdict) {
    std::string lines;
    for (const QString& line : {verdict.reconciliation.text, verdict.verdict})
        if (!line.isEmpty())
            lines += printable(line.toStdString()) + '\n';
    return lines;
}

std::string describeRun(const std::string& label, const RunSummary& s) {
    // Labels, policy names and messages come from users' files (a session, a trace): printed as is,
    // an escape sequence in one would drive the terminal, so their texts are the printable ones. The
    // run's figures' texts and EXPLAIN's lines are worked out first, each once.
    const RunFigureTexts figure(s, FigureText::Printable);
    const QString shownLabel = QString::fromStdString(printable(label));
    const std::string explain = explainIoText(s.explainIo);
    const std::string explainScope = explainIoScopeNote(s.pgIndex.has_value());
    QString text;
    text += label == s.policy ? QStringLiteral("policy %1\n").arg(figure["policy"])
                              : QStringLiteral("run %1 (policy %2)\n").arg(shownLabel, figure["policy"]);
    for (const std::string_view line : kFigureLines)
        text += figure.fill(line) + QLatin1Char('\n');
    if (s.repeats.size() > 1) {
        // The medians are what the verdict compares (docs/repeats.md).
        text +=
            QStringLiteral("  %1 repeats (the median repeat's figures above); medians (ranges): run time %2 "
                           "s, waits %3, wait time %4 ms, %5 MiB/s\n")
                .arg(s.repeats.size())
                .arg(figure.medianWithRange("runtime_ns"), figure.medianWithRange("waits"),
                     figure.medianWithRange("wait_ns"), figure.medianWithRange("read_throughput"));
    }
    if (!s.strategy.empty()) {
        text += figure.fill(kPoolLine);
        if (s.ringBuffers > 0)
            text += figure.fill(kRingLine);
        text += figure.fill(kResidentLine) + QLatin1Char('\n');
    }
    if (!s.streamFlags.empty())
        text += figure.fill("  stream flags {stream_flags}") + QLatin1Char('\n');
    if (s.reversedRanges > 0)
        text += figure.fill("  {reversed_ranges} descending runs read as reversed ranges: each read whole "
                            "before its first buffer is handed back") +
                QLatin1Char('\n');
    if (s.resets > 0)
        text +=
            fillFigures("  resets (rescans) {resets}: the distance after a reset {distance_after_reset_mean} "
                        "on average; {blocks_after_end} blocks handed out after their scan's end (at "
                        "distance 0, counted in the mean), mean distance while looking ahead "
                        "{distance_mean_ahead}",
                        s, FigureText::Printable) +
            QLatin1Char('\n');
    if (!s.streams.empty())
        text += QStringLiteral("  its %1 streams, each on its own (the figures above are the drawn stream's, "
                               "but for the run time, the device's reads and the cache after the run, the "
                               "whole run's):\n")
                    .arg(s.streams.size());
    for (std::size_t i = 0; i < s.streams.size(); ++i)
        text +=
            QStringLiteral("    stream %1: ").arg(i) +
            fillFigures("blocks {blocks}, hits {hits}, misses {misses}, reads {ios} (mean {mean_read_blocks} "
                        "blocks), waits {waits}, resets {resets}, distance mean {distance_mean}",
                        s.streams[i], FigureText::Printable) +
            QLatin1Char('\n');
    if (s.collapseIntervals.empty())
        text += QStringLiteral("  no distance collapse\n");
    else
        text += QStringLiteral(
                    "  DISTANCE COLLAPSE: %1 interval(s), %2 blocks with the distance stuck at 1<->2\n")
                    .arg(s.collapseIntervals.size())
                    .arg(figure["collapsed_blocks"]);
    if (!explain.empty())
        text += QString::fromStdString(explain) +
                QStringLiteral("  (%1)\n").arg(QString::fromStdString(explainScope));
    if (s.readsBeforeStream > 0)
        text += figure.fill(
                    "  before the stream started: {reads_before_stream} reads, {waits_before_stream} waits "
                    "(in the run's reads and waits, not in EXPLAIN's)") +
                QLatin1Char('\n');
    if (s.ioWorkersPeak > 0)
        text += figure.fill("  I/O workers {io_workers_start} → {io_workers_end} (most {io_workers_peak})") +
                QLatin1Char('\n');
    if (s.osCacheResidentBefore) {
        const auto percent = [&](const std::optional<double>& fraction, std::string_view name) {
            return fraction ? figure[name] + QLatin1Char('%') : QStringLiteral("-");
        };
        text +=
            QStringLiteral("  real I/O%1: pages verified %2, OS page cache resident before %3, after %4\n")
                .arg(s.directIo ? QStringLiteral(" (O_DIRECT)") : QStringLiteral(" (buffered)"),
                     figure["pages_verified"], percent(s.osCacheResidentBefore, "os_cache_resident_before"),
                     percent(s.osCacheResidentAfter, "os_cache_resident_after"));
    }
    if (!s.fallbackReason.empty())
        text += QStringLiteral("  fallback: %1\n").arg(figure["fallback_reason"]);
    if (s.cancelled)
        text += QStringLiteral("  cancelled\n");
    if (!s.error.empty())
        text += QStringLiteral("  ERROR: %1\n").arg(figure["error"]);
    return text.toStdString();
}

} // namespace la

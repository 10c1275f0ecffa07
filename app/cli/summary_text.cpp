// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/summary_text.h"

#include "figure_text.h"
#include "message_text.h"

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

} // namespace

std::string describeRun(const std::string& label, const RunSummary& s) {
    // Labels, policy names and messages come from users' files (a session, a trace): printed as is,
    // an escape sequence in one would drive the terminal.
    const auto shown = [](const std::string& text) { return QString::fromStdString(printable(text)); };
    const auto figure = [&s](std::string_view name) { return figureText(s, name, FigureText::Printable); };
    QString text;
    text += label == s.policy ? QStringLiteral("policy %1\n").arg(shown(s.policy))
                              : QStringLiteral("run %1 (policy %2)\n").arg(shown(label), shown(s.policy));
    for (const std::string_view line : kFigureLines)
        text += fillFigures(line, s, FigureText::Printable) + QLatin1Char('\n');
    if (s.repeats.size() > 1) {
        // The medians are what the verdict compares (docs/repeats.md).
        const auto median = [&s](std::string_view name) {
            return QStringLiteral("%1 (%2)").arg(medianText(s, name), rangeText(s, name));
        };
        text +=
            QStringLiteral("  %1 repeats (the median repeat's figures above); medians (ranges): run time %2 "
                           "s, waits %3, wait time %4 ms, %5 MiB/s\n")
                .arg(s.repeats.size())
                .arg(median("runtime_ns"), median("waits"), median("wait_ns"), median("read_throughput"));
    }
    if (s.collapseIntervals.empty())
        text += QStringLiteral("  no distance collapse\n");
    else
        text += QStringLiteral(
                    "  DISTANCE COLLAPSE: %1 interval(s), %2 blocks with the distance stuck at 1<->2\n")
                    .arg(s.collapseIntervals.size())
                    .arg(figure("collapsed_blocks"));
    if (const std::string explain = explainIoText(s.explainIo); !explain.empty())
        text +=
            QString::fromStdString(explain) +
            QStringLiteral("  (%1)\n").arg(QString::fromStdString(explainIoScopeNote(s.pgIndex.has_value())));
    if (s.readsBeforeStream > 0)
        text += fillFigures(
                    "  before the stream started: {reads_before_stream} reads, {waits_before_stream} waits "
                    "(in the run's reads and waits, not in EXPLAIN's)",
                    s, FigureText::Printable) +
                QLatin1Char('\n');
    if (s.ioWorkersPeak > 0)
        text += fillFigures("  I/O workers {io_workers_start} → {io_workers_end} (most {io_workers_peak})", s,
                            FigureText::Printable) +
                QLatin1Char('\n');
    if (s.osCacheResidentBefore) {
        const auto percent = [&](const std::optional<double>& fraction, std::string_view name) {
            return fraction ? figure(name) + QLatin1Char('%') : QStringLiteral("-");
        };
        text +=
            QStringLiteral("  real I/O%1: pages verified %2, OS page cache resident before %3, after %4\n")
                .arg(s.directIo ? QStringLiteral(" (O_DIRECT)") : QStringLiteral(" (buffered)"),
                     figure("pages_verified"), percent(s.osCacheResidentBefore, "os_cache_resident_before"),
                     percent(s.osCacheResidentAfter, "os_cache_resident_after"));
    }
    if (!s.fallbackReason.empty())
        text += QStringLiteral("  fallback: %1\n").arg(figure("fallback_reason"));
    if (s.cancelled)
        text += QStringLiteral("  cancelled\n");
    if (!s.error.empty())
        text += QStringLiteral("  ERROR: %1\n").arg(figure("error"));
    return text.toStdString();
}

} // namespace la

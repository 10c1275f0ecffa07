// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_rows.h"

#include "block_size.h"
#include "tooltips.h"

#include <functional>
#include <string_view>

namespace la {

namespace {

using Cell = std::function<QString(const RunSummary&)>;

double seconds(const RunSummary& s) {
    return static_cast<double>(s.runtimeNs) / 1e9;
}

QString ioMethod(const RunSummary& s) {
    QString text = QString::fromStdString(s.ioMethodUsed);
    if (!s.fallbackReason.empty())
        text += QStringLiteral(" (fallback: %1)").arg(QString::fromStdString(s.fallbackReason));
    return text;
}

QString collapses(const RunSummary& s) {
    if (s.collapseIntervals.empty())
        return QStringLiteral("none");
    std::uint64_t stuck = 0;
    for (const auto& [first, last] : s.collapseIntervals)
        stuck += last - first + 1;
    return QStringLiteral("%1 (%2 blocks)").arg(formatCount(s.collapseIntervals.size()), formatCount(stuck));
}

// An imported trace's run: it has reads, not the stream's state.
bool observed(const RunSummary& s) {
    return s.policy == "observed";
}

// A cell a syscall trace cannot fill.
Cell streamOnly(Cell cell) {
    return
        [cell](const RunSummary& s) { return observed(s) ? QStringLiteral("– (not in a trace)") : cell(s); };
}

// explain.c's text, without its labels; "–" where it prints no such line.
QString explainLine(const std::string& line, std::size_t label) {
    return line.empty() ? QStringLiteral("–") : QString::fromStdString(line.substr(label));
}

QString state(const RunSummary& s) {
    if (!s.error.empty())
        return QStringLiteral("error: %1").arg(QString::fromStdString(s.error));
    return s.cancelled ? QStringLiteral("stopped") : QStringLiteral("complete");
}

const std::vector<std::pair<QString, Cell>>& rowDefinitions() {
    static const std::vector<std::pair<QString, Cell>> rows{
        {QStringLiteral("Policy"), [](const RunSummary& s) { return QString::fromStdString(s.policy); }},
        {QStringLiteral("Outcome"), state},
        {QStringLiteral("I/O method"), ioMethod},
        {QStringLiteral("Blocks (hits / misses)"),
         [](const RunSummary& s) {
             if (observed(s))
                 return QStringLiteral("%1 read").arg(formatCount(s.blocks));
             return QStringLiteral("%1 (%2 / %3)")
                 .arg(formatCount(s.blocks), formatCount(s.hits), formatCount(s.misses));
         }},
        {QStringLiteral("I/Os"), [](const RunSummary& s) { return formatCount(s.ios); }},
        {QStringLiteral("Mean I/O size"),
         [](const RunSummary& s) {
             const double blocks =
                 s.ios ? static_cast<double>(s.bytesRead) / kBlockSize / static_cast<double>(s.ios) : 0.0;
             return QStringLiteral("%1 blocks (%2)")
                 .arg(blocks, 0, 'f', 2)
                 .arg(formatBytes(blocks * kBlockSize));
         }},
        {QStringLiteral("Read throughput"),
         [](const RunSummary& s) {
             const double mib = static_cast<double>(s.bytesRead) / (1024.0 * 1024.0);
             return seconds(s) > 0 ? QStringLiteral("%1 MiB/s").arg(mib / seconds(s), 0, 'f', 1)
                                   : QStringLiteral("–");
         }},
        {QStringLiteral("Waits (time)"),
         [](const RunSummary& s) {
             return QStringLiteral("%1 (%2)").arg(formatCount(s.waits),
                                                  formatDuration(static_cast<double>(s.waitNs)));
         }},
        {QStringLiteral("Run time"),
         [](const RunSummary& s) { return formatDuration(static_cast<double>(s.runtimeNs)); }},
        {QStringLiteral("Mean distance"), streamOnly([](const RunSummary& s) {
             return QStringLiteral("%1 (max %2)").arg(s.distanceMean, 0, 'f', 2).arg(s.distanceMax);
         })},
        {QStringLiteral("Blocks at distance ≤ 2"), streamOnly([](const RunSummary& s) {
             return QStringLiteral("%1 %").arg(100.0 * s.fracDistanceLe2, 0, 'f', 1);
         })},
        {QStringLiteral("Collapses"), streamOnly(collapses)},
        {QStringLiteral("EXPLAIN IO Prefetch"),
         [](const RunSummary& s) {
             return explainLine(explainPrefetchLine(s.explainIo), std::string_view("Prefetch: ").size());
         }},
        {QStringLiteral("EXPLAIN IO I/O"),
         [](const RunSummary& s) {
             return explainLine(explainIoLine(s.explainIo), std::string_view("I/O: ").size());
         }},
        {QStringLiteral("max_pinned / io_combine_limit"), streamOnly([](const RunSummary& s) {
             return QStringLiteral("%1 / %2").arg(s.maxPinned).arg(s.ioCombineLimit);
         })},
    };
    return rows;
}

} // namespace

std::vector<SummaryRow> summaryRows(const std::vector<const RunSummary*>& runs) {
    std::vector<SummaryRow> rows;
    for (const auto& [label, cell] : rowDefinitions()) {
        SummaryRow row{label, {}};
        for (const RunSummary* run : runs)
            row.values.push_back(run ? cell(*run) : QStringLiteral("…"));
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "tooltips.h"

#include "block_size.h"
#include "number_text.h"
#include "run_trace.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>

namespace la {

namespace {

constexpr std::size_t kMaxReadsScanned = 200'000;

QString range(std::uint64_t lo, std::uint64_t hiInclusive) {
    return lo == hiInclusive ? formatCount(lo)
                             : formatCount(lo) + QStringLiteral("–") + formatCount(hiInclusive);
}

QString valueRange(std::uint16_t lo, std::uint16_t hi) {
    return lo == hi ? QString::number(lo) : QStringLiteral("%1–%2").arg(lo).arg(hi);
}

QString where(const RunTrace& trace, std::uint64_t first, std::uint64_t end) {
    const double t0 = trace.timeNsAt(static_cast<double>(first));
    if (end - first <= 1)
        return QStringLiteral("position %1 · t = %2").arg(formatCount(first), formatDuration(t0));
    const double t1 = trace.timeNsAt(static_cast<double>(end - 1));
    return QStringLiteral("positions %1 · t = %2").arg(range(first, end - 1), formatDurationSpan(t0, t1));
}

// `ns` in `unit` ("ms" for 1e6) with `decimals` decimals; minutes and seconds from a minute on.
QString durationIn(double ns, double unit, int decimals) {
    const QString sign = ns < 0 ? QStringLiteral("-") : QString();
    const double a = std::fabs(ns);
    if (unit >= 60e9) {
        const double minutes = std::floor(a / 60e9);
        return QStringLiteral("%1%2 min %3 s")
            .arg(sign)
            .arg(minutes, 0, 'f', 0)
            .arg((a - minutes * 60e9) / 1e9, 0, 'f', decimals);
    }
    const char* const name = unit == 1e9 ? "s" : unit == 1e6 ? "ms" : unit == 1e3 ? "µs" : "ns";
    return sign + QString::number(a / unit, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(name);
}

QString collapseNote(const RunTrace& trace, std::uint64_t first, std::uint64_t end) {
    for (std::size_t i = 0; i < trace.collapseCount(); ++i) {
        const CollapseInterval interval = trace.collapse(i);
        if (interval.first < end && interval.second >= first)
            return QStringLiteral("\nin a collapse: ") + collapseLabel(trace, interval);
    }
    return {};
}

// The stream's resets before positions [first, end) were handed out: a nested loop's rescans.
QString resetNote(const RunTrace& trace, std::uint64_t first, std::uint64_t end) {
    const std::size_t lo = trace.firstResetAt(static_cast<double>(first));
    const std::size_t n = trace.firstResetAt(static_cast<double>(end)) - lo;
    if (n == 0)
        return {};
    return n == 1 ? QStringLiteral("\nreset (rescan) before position %1")
                        .arg(formatCount(trace.resetPosition(lo)))
                  : QStringLiteral("\n%1 resets (rescans)").arg(formatCount(n));
}

// What became of a single block, on a line of its own.
QString outcome(bool miss, bool waited) {
    return waited ? QStringLiteral("\nmiss, waited")
           : miss ? QStringLiteral("\nmiss")
                  : QStringLiteral("\nhit");
}

} // namespace

QString formatDurationSpan(double fromNs, double toNs) {
    const QString from = formatDuration(fromNs), to = formatDuration(toNs);
    if (from != to)
        return from + QStringLiteral(" – ") + to;
    if (std::llround(fromNs) == std::llround(toNs))
        return from;
    // The same at four digits: one unit for both, and decimals until they differ (a nanosecond at
    // most, where two different times always do).
    const double a = std::max(std::fabs(fromNs), std::fabs(toNs));
    const double unit = a >= 60e9 ? 60e9 : a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1.0;
    const double finest = unit == 60e9 ? 1e9 : unit; // the part after the point: seconds from a minute on
    for (int decimals = 1;; ++decimals) {
        const QString lo = durationIn(fromNs, unit, decimals), hi = durationIn(toNs, unit, decimals);
        if (lo != hi || std::pow(10.0, decimals) >= finest)
            return lo + QStringLiteral(" – ") + hi;
    }
}

QString formatBytes(double bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    std::size_t unit = 0;
    while (std::fabs(bytes) >= 1024.0 && unit + 1 < std::size(units)) {
        bytes /= 1024.0;
        ++unit;
    }
    const bool whole = unit == 0 || std::fabs(bytes - std::round(bytes)) < 0.05 || std::fabs(bytes) >= 100;
    return QString::number(bytes, 'f', whole ? 0 : 1) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString formatBlocks(int blocks) {
    const QString size = formatBytes(static_cast<double>(blocks) * kBlockSize);
    return blocks == 1 ? QStringLiteral("1 block (%1)").arg(size)
                       : QStringLiteral("%1 blocks (%2)").arg(blocks).arg(size);
}

QString stateTooltip(const RunTrace& trace, XAxis mode, double xLo, double xHi) {
    const auto [first, end] = positionsInX(trace, mode, xLo, xHi);
    if (end <= first)
        return {};
    const StateBuckets& state = trace.state();
    const StateSpan span = state.span(state.bucketOf(first), state.bucketOf(end - 1) + 1);
    const auto series = [&](StateSeries s) {
        return valueRange(span.lo[static_cast<std::size_t>(s)], span.hi[static_cast<std::size_t>(s)]);
    };
    QString text = where(trace, span.firstPosition, span.endPosition);
    text += QStringLiteral("\ndistance %1").arg(series(StateSeries::Distance));
    if (state.maxValue(StateSeries::CombineDistance) > 0)
        text += QStringLiteral(" · combine distance %1").arg(series(StateSeries::CombineDistance));
    text += QStringLiteral("\npinned %1 · in flight %2")
                .arg(series(StateSeries::Pinned), series(StateSeries::InFlight));
    if (span.blocks() == 1)
        text += outcome(span.misses > 0, span.waits > 0);
    else
        text +=
            QStringLiteral("\n%1 misses, %2 waited").arg(formatCount(span.misses), formatCount(span.waits));
    return text + resetNote(trace, first, end) + collapseNote(trace, span.firstPosition, span.endPosition);
}

QString hitMissTooltip(const RunTrace& trace, XAxis mode, double xLo, double xHi, double yLo, double yHi,
                       const HitMissCell& cell) {
    if (cell.blocks == 0)
        return {};
    const auto [first, end] = positionsInX(trace, mode, xLo, xHi);
    const auto blockLo = static_cast<std::uint64_t>(std::max(0.0, std::floor(yLo)));
    const auto blockHi = static_cast<std::uint64_t>(std::max(0.0, std::ceil(yHi) - 1.0));
    QString text = where(trace, first, std::max(end, first + 1));
    text += QStringLiteral("\nblocks %1").arg(range(blockLo, std::max(blockLo, blockHi)));
    if (cell.blocks == 1)
        return text + outcome(cell.misses > 0, cell.waits > 0);
    return text + QStringLiteral("\n%1 buffers: %2 hits, %3 misses, %4 waited")
                      .arg(formatCount(cell.blocks), formatCount(cell.blocks - cell.misses),
                           formatCount(cell.misses), formatCount(cell.waits));
}

QString ioSizeTooltip(const RunTrace& trace, XAxis mode, double xLo, double xHi) {
    const auto [first, end] = readsInX(trace, mode, xLo, xHi);
    if (end <= first)
        return {};
    std::map<int, std::uint64_t> sizes;
    const std::size_t scanEnd = std::min(end, first + kMaxReadsScanned);
    for (std::size_t r = first; r < scanEnd; ++r)
        ++sizes[trace.read(r).nblocks];
    QStringList parts;
    for (auto it = sizes.rbegin(); it != sizes.rend(); ++it)
        parts << QStringLiteral("%1 ×%2").arg(formatBlocks(it->first), formatCount(it->second));
    const ReadRecord read = trace.read(first);
    const QString when =
        end - first == 1
            ? QStringLiteral("1 read at t = %1, position %2")
                  .arg(formatDuration(static_cast<double>(read.startNs)), formatCount(read.position))
            : QStringLiteral("%1 reads from t = %2")
                  .arg(formatCount(end - first), formatDuration(static_cast<double>(read.startNs)));
    return when + QLatin1Char('\n') + parts.join(QLatin1Char('\n'));
}

QString requestTooltip(const RunTrace& trace, XAxis mode, double xLo, double xHi, double yLo, double yHi) {
    const auto [first, end] = readsInX(trace, mode, xLo, xHi);
    QStringList lines;
    std::uint64_t matches = 0;
    const std::size_t scanEnd = std::min(end, first + kMaxReadsScanned);
    for (std::size_t r = first; r < scanEnd; ++r) {
        const ReadRecord read = trace.read(r);
        const double lo = read.block;
        const double hi = lo + std::max<double>(read.nblocks, 1.0);
        if (hi <= yLo || lo >= yHi)
            continue;
        if (++matches <= 3)
            lines << QStringLiteral("read %1 at t = %2 (position %3): blocks %4, %5")
                         .arg(formatCount(r + 1), formatDuration(static_cast<double>(read.startNs)),
                              formatCount(read.position),
                              range(read.block, read.block + std::max<int>(read.nblocks, 1) - 1),
                              formatBlocks(read.nblocks));
    }
    if (matches > 3)
        lines << QStringLiteral("… %1 reads here in all").arg(formatCount(matches));
    return lines.join(QLatin1Char('\n'));
}

QString collapseLabel(const RunTrace& trace, std::pair<std::uint64_t, std::uint64_t> interval) {
    const StateBuckets& state = trace.state();
    const std::uint64_t misses =
        state.misses(state.bucketOf(interval.first), state.bucketOf(interval.second) + 1);
    return QStringLiteral("distance stuck at 1↔2 for %1 misses").arg(formatCount(misses));
}

} // namespace la

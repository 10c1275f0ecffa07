// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/summary_text.h"

#include "message_text.h"

#include <QLocale>
#include <QString>

namespace la {

namespace {

QString count(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

} // namespace

std::string describeRun(const std::string& label, const RunSummary& s) {
    // Labels, policy names and messages come from users' files (a session, a trace): printed as is,
    // an escape sequence in one would drive the terminal.
    const auto shown = [](const std::string& text) { return QString::fromStdString(printable(text)); };
    const double seconds = static_cast<double>(s.runtimeNs) / 1e9;
    const double meanSize = s.ios ? static_cast<double>(s.misses) / static_cast<double>(s.ios) : 0.0;
    QString text;
    text += label == s.policy ? QStringLiteral("policy %1\n").arg(shown(s.policy))
                              : QStringLiteral("run %1 (policy %2)\n").arg(shown(label), shown(s.policy));
    text += QStringLiteral("  blocks %1  hits %2  misses %3\n")
                .arg(count(s.blocks), count(s.hits), count(s.misses));
    text += QStringLiteral("  reads %1 (mean %2 blocks)  device reads %3  %4 MiB\n")
                .arg(count(s.ios))
                .arg(meanSize, 0, 'f', 2)
                .arg(count(s.deviceReads))
                .arg(static_cast<double>(s.bytesRead) / 1048576.0, 0, 'f', 1);
    QString hist;
    for (const auto& [size, n] : s.ioSizeHist)
        hist += QStringLiteral(" %1:%2").arg(size).arg(n);
    text += QStringLiteral("  read sizes (blocks:count)%1\n").arg(hist);
    text += QStringLiteral("  waits %1 (%2 ms)  run time %3 s  (%4)\n")
                .arg(count(s.waits))
                .arg(static_cast<double>(s.waitNs) / 1e6, 0, 'f', 1)
                .arg(seconds, 0, 'f', 3)
                .arg(shown(s.ioMethodUsed));
    text += QStringLiteral(
                "  distance mean %1 (time-weighted %2) max %3, at <= 2 for %4% of blocks; pinned mean %5, "
                "in flight mean %6 (max_pinned %7)\n")
                .arg(s.distanceMean, 0, 'f', 2)
                .arg(s.distanceTimeMean, 0, 'f', 2)
                .arg(s.distanceMax)
                .arg(100.0 * s.fracDistanceLe2, 0, 'f', 1)
                .arg(s.pinnedMean, 0, 'f', 2)
                .arg(s.inFlightMean, 0, 'f', 2)
                .arg(s.maxPinned);
    if (s.collapseIntervals.empty()) {
        text += QStringLiteral("  no distance collapse\n");
    } else {
        std::uint64_t stuck = 0;
        for (const auto& [first, last] : s.collapseIntervals)
            stuck += last - first + 1;
        text += QStringLiteral(
                    "  DISTANCE COLLAPSE: %1 interval(s), %2 blocks with the distance stuck at 1<->2\n")
                    .arg(s.collapseIntervals.size())
                    .arg(count(stuck));
    }
    text += QString::fromStdString(explainIoText(s.explainIo));
    if (s.osCacheResidentBefore) {
        const auto percent = [](const std::optional<double>& f) {
            return f ? QStringLiteral("%1%").arg(100.0 * *f, 0, 'f', 1) : QStringLiteral("-");
        };
        text +=
            QStringLiteral("  real I/O%1: pages verified %2, OS page cache resident before %3, after %4\n")
                .arg(s.directIo ? QStringLiteral(" (O_DIRECT)") : QStringLiteral(" (buffered)"),
                     count(s.pagesVerified), percent(s.osCacheResidentBefore),
                     percent(s.osCacheResidentAfter));
    }
    if (!s.fallbackReason.empty())
        text += QStringLiteral("  fallback: %1\n").arg(shown(s.fallbackReason));
    if (s.cancelled)
        text += QStringLiteral("  cancelled\n");
    if (!s.error.empty())
        text += QStringLiteral("  ERROR: %1\n").arg(shown(s.error));
    return text.toStdString();
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/import_summary.h"

#include "message_text.h"

#include <QLocale>

namespace la {

namespace {

// Processes listed on stdout; a trace of many short-lived processes lists the rest as a count.
constexpr std::size_t kProcessesShown = 16;

QString count(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

std::uint64_t singleBlockReads(const RunSummary& s) {
    const auto found = s.ioSizeHist.find(1);
    return found == s.ioSizeHist.end() ? 0 : found->second;
}

} // namespace

QString observedVerdict(const ObservedSummary& observed, const RunSummary& model,
                        const QString& timeNotCompared) {
    const RunSummary& o = observed.run;
    QString text =
        QStringLiteral("observed %1 reads (%2 of 8 kB), %3 blocks; %4 model %5 reads (%6 of 8 kB), %7 misses")
            .arg(count(o.ios), count(singleBlockReads(o)), count(o.blocks),
                 QString::fromStdString(model.policy), count(model.ios), count(singleBlockReads(model)),
                 count(model.misses));
    if (!o.waitsUnknown && !model.waitsUnknown)
        text += QStringLiteral("; waits %1 against %2").arg(count(o.waits), count(model.waits));
    else
        text += QStringLiteral("; waits not compared (not in the trace)");
    if (timeNotCompared.isEmpty())
        text += QStringLiteral("; run time %1 s against %2 s")
                    .arg(static_cast<double>(o.runtimeNs) / 1e9, 0, 'f', 3)
                    .arg(static_cast<double>(model.runtimeNs) / 1e9, 0, 'f', 3);
    else
        text += QStringLiteral("; time not compared: ") + timeNotCompared;
    return text;
}

std::string describeObserved(const ObservedSummary& o) {
    const RunSummary& s = o.run;
    // The relation is a path or label from the trace: escaped, as every trace text on a terminal.
    QString text = QStringLiteral("observed (%1, %2)\n")
                       .arg(QString::fromStdString(o.source), QString::fromStdString(excerpt(o.relation)));
    text += QStringLiteral("  reads %1 (mean %2 blocks)  blocks %3  %4 MiB  %5 MB/s\n")
                .arg(count(s.ios))
                .arg(o.meanReadBlocks, 0, 'f', 2)
                .arg(count(s.blocks))
                .arg(static_cast<double>(s.bytesRead) / 1048576.0, 0, 'f', 1)
                .arg(o.megabytesPerSecond, 0, 'f', 1);
    QString hist;
    for (const auto& [size, n] : s.ioSizeHist)
        hist += QStringLiteral(" %1:%2").arg(size).arg(n);
    text += QStringLiteral("  read sizes (blocks:count)%1\n").arg(hist);
    text += QStringLiteral("  run time %1 s  device time %2 s\n")
                .arg(static_cast<double>(s.runtimeNs) / 1e9, 0, 'f', 3)
                .arg(static_cast<double>(o.deviceTimeNs) / 1e9, 0, 'f', 3);
    QString processes;
    for (std::size_t i = 0; i < o.readsByProcess.size() && i < kProcessesShown; ++i)
        processes +=
            QStringLiteral(" %1:%2").arg(o.readsByProcess[i].first).arg(count(o.readsByProcess[i].second));
    if (o.readsByProcess.size() > kProcessesShown)
        processes += QStringLiteral(" and %1 more").arg(count(o.readsByProcess.size() - kProcessesShown));
    text += QStringLiteral("  reads by process (pid:reads)%1\n").arg(processes);
    if (s.waitsUnknown)
        text += QStringLiteral("  waits %1\n").arg(QString::fromStdString(s.waitsScope));
    else if (s.waitTimeUnknown)
        text += QStringLiteral("  waits %1: %2\n").arg(count(s.waits), QString::fromStdString(s.waitsScope));
    else if (!s.waitsScope.empty())
        text += QStringLiteral("  waits %1 (%2 ms): %3\n")
                    .arg(count(s.waits))
                    .arg(static_cast<double>(s.waitNs) / 1e6, 0, 'f', 3)
                    .arg(QString::fromStdString(s.waitsScope));
    text += QString::fromStdString(explainIoText(s.explainIo));
    text += QStringLiteral(
                "  descending runs of 8 kB reads that could have been combined: %1 runs, %2 reads saved\n")
                .arg(count(o.combinable.runs), count(o.combinable.readsSaved));
    return text.toStdString();
}

} // namespace la

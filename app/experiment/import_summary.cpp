// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/import_summary.h"

#include "message_text.h"
#include "observed/read_sources.h"

#include <QLocale>

#include <cmath>

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

// The reads the page cache served and the device's, and how they were told apart (docs/trace-import.md §5).
std::string pageCacheLine(const RunSummary& s) {
    if (!s.pageCacheKnown)
        return "  page cache and device reads " + s.pageCacheBasis + "\n";
    std::string line = "  page cache " + count(s.pageCacheReads).toStdString() + " reads, device " +
                       count(s.deviceReads).toStdString() + ": ";
    if (s.pageCacheThresholdNs)
        line += "threshold " + durationText(std::llround(*s.pageCacheThresholdNs)) + ", ";
    return line + s.pageCacheBasis + "\n";
}

} // namespace

QString observedVerdict(const RunSummary& observed, const RunSummary& model, const QString& timeNotCompared,
                        const QString& observedNote, const QString& modelNote) {
    const auto noted = [](const QString& note) {
        return note.isEmpty() ? note : QStringLiteral(", ") + note;
    };
    QString text =
        QStringLiteral("observed %1 reads (%2 of 8 kB), %3 blocks%4; %5 model %6 reads (%7 of 8 kB), "
                       "%8 misses%9")
            .arg(count(observed.ios), count(singleBlockReads(observed)), count(observed.blocks),
                 noted(observedNote), QString::fromStdString(model.policy), count(model.ios),
                 count(singleBlockReads(model)), count(model.misses), noted(modelNote));
    if (!observed.waitsUnknown && !model.waitsUnknown)
        text += QStringLiteral("; waits %1 against %2").arg(count(observed.waits), count(model.waits));
    else
        text += QStringLiteral("; waits not compared (not in the trace)");
    if (timeNotCompared.isEmpty())
        text += QStringLiteral("; run time %1 s against %2 s")
                    .arg(static_cast<double>(observed.runtimeNs) / 1e9, 0, 'f', 3)
                    .arg(static_cast<double>(model.runtimeNs) / 1e9, 0, 'f', 3);
    else
        text += QStringLiteral("; time not compared: ") + timeNotCompared;
    return text;
}

std::vector<std::string> importNotes(const ObservedTrace& trace, bool relationGiven) {
    std::vector<std::string> notes;
    std::string others;
    for (std::size_t i = 1; i < trace.files.size() && i < 4; ++i)
        others += (others.empty() ? "" : ", ") + excerpt(trace.files[i].name) + " (" +
                  std::to_string(trace.files[i].reads) + " reads)";
    notes.push_back(
        "relation " + excerpt(trace.relation) + ": " + std::to_string(trace.reads.size()) + " reads" +
        (relationGiven
             ? ""
             : ", the most read of " + std::to_string(trace.files.size() + trace.otherFiles) + " file(s)" +
                   (others.empty() ? "" : "; others: " + others) + "; choose with --trace-relation"));
    if (trace.processes.size() > 1)
        notes.push_back("merged the reads of " + std::to_string(trace.processes.size()) +
                        " processes (I/O workers or parallel workers)" +
                        (trace.backend
                             ? std::string()
                             : "; which one ran the scan is not known, so its waits are not either: name "
                               "it with --trace-backend PID"));
    if (!trace.hasTimes)
        notes.push_back(
            "the trace has no timestamps (strace -ttt): reads are placed 1 µs apart in trace order");
    else if (!trace.hasDurations)
        notes.push_back("the trace has no durations (strace -T): every read is drawn as instantaneous");
    if (trace.failedReads > 0)
        notes.push_back(std::to_string(trace.failedReads) +
                        " read(s) of the relation failed and are left out");
    if (trace.unalignedReads > 0)
        notes.push_back(std::to_string(trace.unalignedReads) +
                        " read(s) are not whole 8 kB blocks (rounded out to blocks)");
    if (trace.unmatchedResumes > 0)
        notes.push_back(
            std::to_string(trace.unmatchedResumes) +
            " read(s) began before the trace did (a resumed call without its start) and are left out");
    if (trace.uringEnters > 0)
        notes.push_back("the trace also shows " + std::to_string(trace.uringEnters) +
                        " io_uring_enter calls, whose reads a syscall trace cannot see");
    notes.insert(notes.end(), trace.notes.begin(), trace.notes.end());
    return notes;
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
    text += QString::fromStdString(pageCacheLine(s));
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

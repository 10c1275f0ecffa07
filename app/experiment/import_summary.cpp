// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/import_summary.h"

#include "figure_text.h"
#include "message_text.h"
#include "observed/observed_fields.h"
#include "observed/read_sources.h"
#include "summary_fields.h"

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

// The import summary's first lines; {name} is a figure of the trace's (observed_fields.h) or of its
// run's (summary_fields.h).
constexpr std::string_view kObservedLines[] = {
    "observed ({source}, {relation})",
    "  reads {ios} (mean {mean_read_blocks} blocks)  blocks {blocks}  {bytes_read} MiB  {mb_per_s} MB/s",
    "  read sizes (blocks:count){io_size_hist}",
    "  run time {runtime_ns} s  device time {device_time_ns} s",
};

// A figure of the trace's own printed as its kind is: the trace's text (a path or label from the
// trace) escaped as every trace text on a terminal, a number in its format, a list in its words.
struct ObservedText {
    const ObservedField& field;
    QString operator()(const std::string* text) const { return QString::fromStdString(excerpt(*text)); }
    QString operator()(const std::int64_t* number) const {
        return figureNumberText(field.name, field.format, static_cast<double>(*number));
    }
    QString operator()(const double* number) const {
        return figureNumberText(field.name, field.format, *number);
    }
    QString operator()(const CombinableRuns* runs) const {
        return QStringLiteral("%1 runs, %2 reads saved").arg(count(runs->runs), count(runs->readsSaved));
    }
    QString operator()(const std::vector<std::pair<std::uint32_t, std::uint64_t>>* processes) const {
        QString text;
        for (std::size_t i = 0; i < processes->size() && i < kProcessesShown; ++i)
            text += QStringLiteral(" %1:%2").arg((*processes)[i].first).arg(count((*processes)[i].second));
        if (processes->size() > kProcessesShown)
            text += QStringLiteral(" and %1 more").arg(count(processes->size() - kProcessesShown));
        return text;
    }
};

// The figure `name` of the trace's table, else of its run's.
QString observedFigure(const ObservedSummary& o, std::string_view name) {
    if (const ObservedField* field = observedFieldNamed(name))
        return std::visit(ObservedText{*field}, field->view(o));
    return figureText(o.run, name);
}

// The reads the page cache served and the device's, and how they were told apart (docs/trace-import.md §5).
std::string pageCacheLine(const RunSummary& s) {
    if (!s.pageCacheKnown)
        return fillFigures("  page cache and device reads {page_cache_basis}\n", s).toStdString();
    std::string line =
        fillFigures("  page cache {page_cache_reads} reads, device {device_reads}: ", s).toStdString();
    if (s.pageCacheThresholdNs)
        line += "threshold " + durationText(std::llround(*s.pageCacheThresholdNs)) + ", ";
    return line + fillFigures("{page_cache_basis}\n", s).toStdString();
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
    const auto figure = [&o](std::string_view name) { return observedFigure(o, name); };
    QString text;
    for (const std::string_view line : kObservedLines)
        text += fillFigures(line, figure) + QLatin1Char('\n');
    text += QString::fromStdString(pageCacheLine(s));
    text += fillFigures("  reads by process (pid:reads){processes}", figure) + QLatin1Char('\n');
    if (s.waitsUnknown)
        text += fillFigures("  waits {waits_scope}", figure) + QLatin1Char('\n');
    else if (s.waitTimeUnknown)
        text += fillFigures("  waits {waits}: {waits_scope}", figure) + QLatin1Char('\n');
    else if (!s.waitsScope.empty())
        // The wait time to the microsecond: a trace's waits are short.
        text += QStringLiteral("  waits %1 (%2 ms): %3\n")
                    .arg(figure("waits"))
                    .arg(figureNumber(summaryFieldNamed("wait_ns"), s) / 1e6, 0, 'f', 3)
                    .arg(figure("waits_scope"));
    text += QString::fromStdString(explainIoText(s.explainIo));
    text += fillFigures("  descending runs of 8 kB reads that could have been combined: "
                        "{combinable_descending_runs}",
                        figure) +
            QLatin1Char('\n');
    return text.toStdString();
}

} // namespace la

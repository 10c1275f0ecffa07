// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/input_descriptions.h"

#include "message_text.h"
#include "number_text.h"
#include "observed/trace_format.h"

#include <QFileInfo>
#include <QObject>

namespace la {

namespace {

// The last three components of a relation's path ("base/5/16384"), which is what tells relations
// apart, fit for a narrow panel.
QString shortPath(const std::string& path) {
    const QString text = QString::fromStdString(excerpt(path, 200));
    const QStringList parts = text.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return parts.size() > 3 ? QStringLiteral("…/") + parts.mid(parts.size() - 3).join(QLatin1Char('/'))
                            : text;
}

QString share(std::uint64_t part, std::uint64_t whole) {
    return QStringLiteral("%1 %").arg(
        whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0, 0, 'f', 0);
}

} // namespace

QString traceDescription(const QString& path, const ObservedTrace& trace) {
    QStringList lines{QObject::tr("%1 (%2): %3 reads of %4")
                          .arg(QFileInfo(path).fileName(), QLatin1String(traceFormatName(trace.format)))
                          .arg(formatCount(trace.reads.size()))
                          .arg(shortPath(trace.relation))};
    if (trace.processes.size() > 1)
        lines << QObject::tr("merged from %1 processes (I/O workers)").arg(trace.processes.size());
    if (!trace.hasTimes)
        lines << QObject::tr("no timestamps (strace -ttt): reads placed 1 µs apart");
    else if (!trace.hasDurations)
        lines << QObject::tr("no durations (strace -T): reads drawn as instantaneous");
    if (trace.uringEnters > 0)
        lines << QObject::tr("%1 io_uring_enter calls: their reads are not in a syscall trace")
                     .arg(trace.uringEnters);
    for (const std::string& note : trace.notes) // skipped lines, short reads, ... (already escaped)
        lines << QString::fromStdString(note);
    return lines.join(QLatin1Char('\n'));
}

QStringList relationChoices(const ObservedTrace& trace, int& current) {
    QStringList choices;
    current = 0;
    for (const TracedFile& file : trace.files) {
        QString value = QString::fromStdString(file.name);
        if (value.startsWith(QStringLiteral("fd ")))
            value = QStringLiteral("fd:") + value.section(QLatin1Char(' '), 1, 1);
        if (file.name == trace.relation)
            current = static_cast<int>(choices.size());
        choices << QStringLiteral("%1 — %2 reads, %3\t%4")
                       .arg(shortPath(file.name), formatCount(file.reads),
                            QString::fromStdString(byteSize(file.bytes)), value);
    }
    return choices;
}

QString pgFactsText(const RunConfig& config, const pg::IndexFacts& f) {
    const std::uint64_t steps = f.ascendingSteps + f.descendingSteps + f.randomSteps;
    return QObject::tr(
               "%1 on %2\n%3 leaf pages, %4 TIDs (%5 posting lists, %6 dead items skipped)\n"
               "%7 heap visits over %8 distinct blocks; steps %9 ascending, %10 descending, %11 random%12")
        .arg(shortPath(config.pg.index), shortPath(config.pg.heap), formatCount(f.leafPages),
             formatCount(f.tids), formatCount(f.postingLists), formatCount(f.deadItems),
             formatCount(f.visits), formatCount(f.distinctBlocks), share(f.ascendingSteps, steps))
        .arg(share(f.descendingSteps, steps), share(f.randomSteps, steps),
             f.checksums ? QObject::tr("; checksums verified") : QString());
}

} // namespace la

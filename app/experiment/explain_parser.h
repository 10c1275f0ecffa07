// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the two EXPLAIN parsers (text, FORMAT JSON) share: the limits on untrusted plans, the checks
// of their figures and the one error message naming the file and line (docs/explain-output.md).

#include "experiment/explain_plan.h"
#include "figure_limits.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace la {

// A time in the plan, in milliseconds: at most a run's (figure_limits.h), which its nanoseconds hold.
inline constexpr double kMaxExplainMs = double(kMaxRunTimeNs) / 1e6;

class ExplainParser {
public:
    explicit ExplainParser(const QString& fileName) : m_fileName(fileName) {}

    // Throws InputError naming the file, the line (where one is being read) and `what`.
    [[noreturn]] void fail(const QString& what) const;

    // A count (blocks, reads, waits, loops): a whole number in 0..kMaxFigureCount.
    std::uint64_t whole(const QString& text, const QString& name) const;
    // A number in 0..`most`: kMaxExplainMs for a time, kMaxFigureCount for the rest.
    double decimal(const QString& text, const QString& name, double most = double(kMaxFigureCount)) const;
    static QString outOfRange(const QString& name, const QString& value, double most);

    // A new node of `out` at `depth`: refused past the limits on a plan's size and nesting.
    ExplainNode& addNode(ExplainOutput& out, int depth);

    static QString shown(const QString& text);

    int m_line = 0; // the line being read, from 1; 0 outside the lines

private:
    QString m_fileName;
};

// The lines of the plan without psql's header, rule, footer and continuation marks.
QStringList planLines(const QByteArray& bytes);

// The plan in `lines`, as psql prints EXPLAIN's text format, or FORMAT JSON.
ExplainOutput parseExplainText(ExplainParser& p, const QStringList& lines);
ExplainOutput parseExplainJson(ExplainParser& p, const QStringList& lines);

} // namespace la

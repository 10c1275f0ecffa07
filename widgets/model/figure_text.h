// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"
#include "summary_fields.h"

#include <QString>

#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace la {

// How a figure that is text (a policy, a message) is shown: as it is (the window), or made safe for a
// terminal (printable(), message_text.h): it may come from a user's file.
enum class FigureText { AsIs, Printable };

// The figure `name` of the summary fields' table (core/summary/summary_fields.h) in its format: "12,345",
// "0.053", "12.5"; "–" for a number there is none of. The command line's text and the summary panel
// both print figures so. Throws std::logic_error for a name the table does not have, or a figure
// that its layouts print with their own words (a flag, EXPLAIN's lines).
QString figureText(const RunSummary& summary, std::string_view name, FigureText text = FigureText::AsIs);

// A number of the figure `field` in its format, as figureText() prints it; for a figure kept only as a
// number (a sweep's). Throws std::logic_error for a figure whose format is not a number's.
QString figureNumberText(const SummaryField& field, double number);
// The same for a figure of another table (a trace's, core/observed/observed_fields.h), called `name`.
QString figureNumberText(std::string_view name, const FieldFormat& format, double number);

// A repeated run's range of the figure `name` over its repeats, in the figure's format: "0.038–0.041";
// empty for a run that went once (docs/repeats.md).
QString rangeText(const RunSummary& summary, std::string_view name, FigureText text = FigureText::AsIs);
// The repeats of a repeated run with the least and the most of figure `name` (NaN aside); none for a
// run that went once. A view formats their figures as it formats the run's own.
std::optional<std::pair<const RunSummary*, const RunSummary*>> repeatExtremes(const RunSummary& summary,
                                                                              std::string_view name);

// A repeated run's median of the figure `name` over its repeats, in the figure's format ("165",
// "0.412", "165.5" between two whole numbers); empty for a run that went once. The verdict and the
// summary table both show a repeated run's varying figures so (docs/repeats.md).
QString medianText(const RunSummary& summary, std::string_view name);

// Every figure of a run in its text, worked out once, bottom-up: a text of many lines (the command
// line's summary of a run) fills them from here rather than asking the table figure by figure. A
// repeated run's varying figures have their median and range too (docs/repeats.md).
class RunFigureTexts {
public:
    RunFigureTexts(const RunSummary& summary, FigureText text);
    // The figure `name` as figureText() prints it; throws std::logic_error for one it has no text of.
    const QString& operator[](std::string_view name) const;
    // A repeated run's median of the varying figure `name` with its range: "165 (160–171)".
    QString medianWithRange(std::string_view name) const;
    // `line` with each {name} in it replaced by that figure's text.
    QString fill(std::string_view line) const;

private:
    struct Figure {
        std::string_view name;
        QString text, median, range;
    };
    const Figure& figure(std::string_view name) const;
    std::vector<Figure> m_figures;
};

// `line` with each {name} in it replaced by that figure's text.
QString fillFigures(std::string_view line, const RunSummary& summary, FigureText text = FigureText::AsIs);
// `line` with each {name} in it replaced by `figure(name)`.
QString fillFigures(std::string_view line, const std::function<QString(std::string_view)>& figure);

} // namespace la

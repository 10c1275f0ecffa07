// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure_text.h"

#include "message_text.h"
#include "number_text.h"
#include "repeat_stats.h"
#include "summary_fields.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace la {

QString figureText(const RunSummary& summary, std::string_view name, FigureText text) {
    const SummaryField& field = summaryFieldNamed(name);
    switch (field.format.kind) {
    case FieldFormat::Text: {
        const std::string& value = *std::get<const std::string*>(field.view(summary));
        return QString::fromStdString(text == FigureText::Printable ? printable(value) : value);
    }
    case FieldFormat::Pairs: {
        QString pairs;
        for (const auto& [size, n] : *std::get<const std::map<int, std::uint64_t>*>(field.view(summary)))
            pairs += QStringLiteral(" %1:%2").arg(size).arg(n);
        return pairs;
    }
    case FieldFormat::Own:
        throw std::logic_error("summary figure '" + std::string(name) + "' has no text of its own");
    case FieldFormat::Count:
    case FieldFormat::Whole:
    case FieldFormat::Fixed:
    case FieldFormat::Percent:
        break;
    }
    // A stored count exactly; every other number, a list's length or a derived count through its number.
    if (field.format.kind == FieldFormat::Count && field.view) {
        const FieldView view = field.view(summary);
        if (const auto* value = std::get_if<const std::uint64_t*>(&view))
            return formatCount(**value);
    }
    const double number = figureNumber(field, summary);
    return figureNumberText(field, number);
}

QString figureNumberText(const SummaryField& field, double number) {
    return figureNumberText(field.name, field.format, number);
}

QString figureNumberText(std::string_view name, const FieldFormat& format, double number) {
    switch (format.kind) {
    case FieldFormat::Count:
        return formatCount(static_cast<std::uint64_t>(number));
    case FieldFormat::Whole:
        return QString::number(static_cast<qlonglong>(number));
    case FieldFormat::Fixed:
    case FieldFormat::Percent:
        if (std::isnan(number))
            return QStringLiteral("–");
        return format.kind == FieldFormat::Percent
                   ? QString::number(100.0 * number, 'f', format.decimals)
                   : QString::number(number / format.divisor, 'f', format.decimals);
    case FieldFormat::Text:
    case FieldFormat::Pairs:
    case FieldFormat::Own:
        break;
    }
    throw std::logic_error("summary figure '" + std::string(name) + "' is not a number");
}

std::optional<std::pair<const RunSummary*, const RunSummary*>> repeatExtremes(const RunSummary& summary,
                                                                              std::string_view name) {
    if (summary.repeats.size() < 2)
        return std::nullopt;
    const SummaryField& field = summaryFieldNamed(name);
    const RunSummary* least = nullptr;
    const RunSummary* most = nullptr;
    for (const RunSummary& repeat : summary.repeats) {
        const double value = figureNumber(field, repeat);
        if (std::isnan(value))
            continue;
        if (!least || value < figureNumber(field, *least))
            least = &repeat;
        if (!most || value > figureNumber(field, *most))
            most = &repeat;
    }
    if (!least)
        return std::nullopt;
    return std::pair{least, most};
}

QString rangeText(const RunSummary& summary, std::string_view name, FigureText text) {
    const auto extremes = repeatExtremes(summary, name);
    if (!extremes)
        return {};
    return figureText(*extremes->first, name, text) + QStringLiteral("–") +
           figureText(*extremes->second, name, text);
}

namespace {

// A median of the figure `field` over repeats in the figure's format; the median of an even count of
// repeats may fall between two whole numbers.
QString medianNumberText(const SummaryField& field, double median) {
    const FieldFormat& format = field.format;
    switch (format.kind) {
    case FieldFormat::Count:
    case FieldFormat::Whole:
        if (median != std::floor(median))
            return QLocale(QLocale::English).toString(median, 'f', 1);
        return format.kind == FieldFormat::Count ? formatCount(static_cast<std::uint64_t>(median))
                                                 : QString::number(static_cast<qlonglong>(median));
    case FieldFormat::Fixed:
        return QString::number(median / format.divisor, 'f', format.decimals);
    case FieldFormat::Percent:
        return QString::number(100.0 * median, 'f', format.decimals);
    case FieldFormat::Text:
    case FieldFormat::Pairs:
    case FieldFormat::Own:
        break;
    }
    throw std::logic_error("summary figure '" + std::string(field.name) + "' has no median");
}

bool noneKnown(const std::vector<double>& values) {
    return std::all_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
}

} // namespace

QString medianText(const RunSummary& summary, std::string_view name) {
    if (summary.repeats.size() < 2)
        return {};
    const SummaryField& field = summaryFieldNamed(name);
    const std::vector<double> values = repeatFigures(field, summary);
    if (noneKnown(values))
        return {};
    return medianNumberText(field, spreadOf(values).median);
}

RunFigureTexts::RunFigureTexts(const RunSummary& summary, FigureText text) {
    for (const SummaryField& field : summaryFieldTable())
        if (field.format.kind != FieldFormat::Own)
            m_figures.push_back({field.name, figureText(summary, field.name, text), {}, {}});
    if (summary.repeats.size() < 2)
        return;
    // A varying figure's median and range are of its numbers over the repeats, the median and the
    // least and most, as medianText() and rangeText() print them.
    // Members, not a structured binding: clang 14 (the fuzz build) cannot capture a binding in a lambda.
    for (const RepeatedFigure& repeated : repeatedFigures(summary).figures) {
        if (noneKnown(repeated.values))
            continue;
        const SummaryField& field = *repeated.field;
        Figure& varying = *std::find_if(m_figures.begin(), m_figures.end(),
                                        [&](const Figure& f) { return f.name == field.name; });
        varying.median = medianNumberText(field, repeated.spread.median);
        varying.range = figureNumberText(field, repeated.spread.min) + QStringLiteral("–") +
                        figureNumberText(field, repeated.spread.max);
    }
}

const RunFigureTexts::Figure& RunFigureTexts::figure(std::string_view name) const {
    for (const Figure& figure : m_figures)
        if (figure.name == name)
            return figure;
    throw std::logic_error("summary figure '" + std::string(name) + "' has no text of its own");
}

const QString& RunFigureTexts::operator[](std::string_view name) const {
    return figure(name).text;
}

QString RunFigureTexts::medianWithRange(std::string_view name) const {
    const Figure& varying = figure(name);
    return QStringLiteral("%1 (%2)").arg(varying.median, varying.range);
}

QString RunFigureTexts::fill(std::string_view line) const {
    return fillFigures(line, [this](std::string_view name) { return (*this)[name]; });
}

QString fillFigures(std::string_view line, const RunSummary& summary, FigureText text) {
    return fillFigures(line, [&](std::string_view name) { return figureText(summary, name, text); });
}

QString fillFigures(std::string_view line, const std::function<QString(std::string_view)>& figure) {
    QString filled;
    std::size_t at = 0;
    while (at < line.size()) {
        const std::size_t open = line.find('{', at);
        const std::size_t close = open == std::string_view::npos ? open : line.find('}', open);
        if (close == std::string_view::npos) {
            filled += QString::fromUtf8(line.data() + at, qsizetype(line.size() - at));
            break;
        }
        filled += QString::fromUtf8(line.data() + at, qsizetype(open - at));
        filled += figure(line.substr(open + 1, close - open - 1));
        at = close + 1;
    }
    return filled;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "text_fit.h"

#include <QFontMetricsF>
#include <QTextLayout>

namespace la {

namespace {

const QString kEllipsis = QStringLiteral(" …");

QString withoutTrailingSpaces(QString text) {
    while (!text.isEmpty() && text.back().isSpace())
        text.chop(1);
    return text;
}

} // namespace

QString elideAfterWord(const QString& text, const QFont& font, double width) {
    const QFontMetricsF metrics(font);
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    QString kept = text;
    for (qsizetype cut = kept.lastIndexOf(QLatin1Char(' ')); cut > 0;
         cut = kept.lastIndexOf(QLatin1Char(' '))) {
        kept = withoutTrailingSpaces(kept.left(cut));
        if (metrics.horizontalAdvance(kept + kEllipsis) <= width)
            return kept + kEllipsis;
    }
    // One word longer than the line (a path): cut inside it.
    return metrics.elidedText(text, Qt::ElideRight, width);
}

FittedText fitLines(const QString& text, const QFont& font, double width, int maxLines) {
    FittedText fitted;
    if (text.isEmpty() || maxLines < 1)
        return fitted;
    // Laid out with a word joiner after each slash, so that "I/O-bound" is never broken after "I/";
    // the lines are the text's own, without them.
    QString joined = text;
    joined.replace(QLatin1Char('/'), QStringLiteral("/\u2060"));
    const auto original = [](QString part) { return part.remove(QChar(0x2060)); };
    QTextLayout layout(joined, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        if (fitted.lines.size() + 1 == maxLines) {
            // The last line takes the rest, cut if it does not fit.
            const QString rest = original(joined.mid(line.textStart())).trimmed();
            fitted.lines << elideAfterWord(rest, font, width);
            fitted.elided = fitted.lines.back() != rest;
            break;
        }
        fitted.lines << withoutTrailingSpaces(original(joined.mid(line.textStart(), line.textLength())));
    }
    layout.endLayout();
    return fitted;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QString>
#include <QStringList>

namespace la {

// A text broken into lines no wider than `width` pixels in `font`, after words where it can, and at
// most `maxLines` of them: a text that needs more ends its last line in "…" after a whole word
// (whoever shows it keeps the whole text at hand: a tooltip, the export's metadata). What is drawn
// is these lines, one under the other, so what was measured is what is seen.
struct FittedText {
    QStringList lines;
    bool elided = false;
};
FittedText fitLines(const QString& text, const QFont& font, double width, int maxLines);

// One line: `text` whole if it fits `width`, else cut after a word and ended in "…".
QString elideAfterWord(const QString& text, const QFont& font, double width);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace la {

// Every text an export carries (its caption, the verdict, labels and paths from a user's files, the
// summary JSON) escaped for the file's format: an SVG and a PDF's XMP are XML, which cannot hold
// most control characters even as references; a PNG's text chunks end at a NUL.

// `text` line by line (its line breaks kept) with control characters, bidirectional overrides and
// whatever else printable() escapes written as \xNN: fit for any format's metadata.
QString exportText(const QString& text);

// exportText() escaped as XML character data (&, <, >, quotes).
QString xmlText(const QString& text);

// What a QSvgGenerator is given as its title and description: it writes them into <title> and
// <desc> as they are, unescaped, so finishedSvg() puts the escaped texts in their place.
inline const QString kSvgTitleMark = QStringLiteral("lookahead-svg-title");
inline const QString kSvgDescriptionMark = QStringLiteral("lookahead-svg-description");

// An SVG document as QSvgGenerator wrote it (given the marks above) with `title` and `description` in
// its <title> and <desc>, escaped, and any character XML cannot hold that the drawn text brought in
// (a control character in a label) written as \xNN.
QByteArray finishedSvg(QByteArray svg, const QString& title, const QString& description);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/export_text.h"

#include "message_text.h"

#include <QStringList>

namespace la {

namespace {

// Whether the UTF-8 sequence at `at` of `bytes` is a character XML 1.0 cannot hold: C0 controls but
// tab, line feed and carriage return; U+FFFE and U+FFFF.
int xmlIllegalLength(const QByteArray& bytes, qsizetype at) {
    const auto byte = [&](qsizetype i) { return static_cast<unsigned char>(bytes[at + i]); };
    const unsigned char c = byte(0);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        return 1;
    if (c == 0xEF && at + 2 < bytes.size() && byte(1) == 0xBF && (byte(2) == 0xBE || byte(2) == 0xBF))
        return 3;
    return 0;
}

} // namespace

QString exportText(const QString& text) {
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString& line : lines)
        line = QString::fromStdString(printable(line.toStdString()));
    return lines.join(QLatin1Char('\n'));
}

QString xmlText(const QString& text) {
    return exportText(text).toHtmlEscaped();
}

QByteArray finishedSvg(QByteArray svg, const QString& title, const QString& description) {
    QByteArray clean;
    clean.reserve(svg.size());
    for (qsizetype at = 0; at < svg.size();) {
        if (const int length = xmlIllegalLength(svg, at); length > 0) {
            for (int i = 0; i < length; ++i)
                clean +=
                    QByteArray("\\x") +
                    QByteArray::number(static_cast<unsigned char>(svg[at + i]), 16).rightJustified(2, '0');
            at += length;
        } else {
            clean += svg[at++];
        }
    }
    // Whole elements, so that a drawn text that happens to read like a mark stays as it is (drawn
    // text is escaped: it never holds a tag).
    const auto element = [](const char* tag, const QString& text) {
        return QStringLiteral("<%1>%2</%1>").arg(QLatin1String(tag), text).toUtf8();
    };
    return clean.replace(element("title", kSvgTitleMark), element("title", xmlText(title)))
        .replace(element("desc", kSvgDescriptionMark), element("desc", xmlText(description)));
}

} // namespace la

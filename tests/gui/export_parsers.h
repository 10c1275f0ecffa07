// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An export read back by real parsers, the programs a user would open it with (Debian packages that
// packaging/install-deps.sh installs): xmllint for the SVG and the PDF's XMP packet, rsvg-convert for
// the SVG drawn, pdfinfo for the PDF; the PNG's text chunks through Qt's reader (libpng).

#include <QFileInfo>
#include <QImageReader>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

namespace la::test {

struct ToolRun {
    QString error; // empty when the program ran and exited 0
    QByteArray out;
};

// Runs `program` with `args` (and `input` on its stdin); a missing program is an error naming its package.
inline ToolRun runTool(const QString& program, const QString& package, const QStringList& args,
                       const QByteArray& input = {}) {
    if (QStandardPaths::findExecutable(program).isEmpty())
        return {QStringLiteral("%1 is not installed (packaging/install-deps.sh installs %2)")
                    .arg(program, package),
                {}};
    QProcess process;
    process.start(program, args);
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60'000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0)
        return {
            QStringLiteral("%1 %2 failed: %3")
                .arg(program, args.join(QLatin1Char(' ')), QString::fromUtf8(process.readAllStandardError())),
            {}};
    return {{}, process.readAllStandardOutput()};
}

// The SVG is well-formed XML (xmllint) and rsvg-convert draws it; empty, or what went wrong.
inline QString svgReadBack(const QString& svg) {
    if (const ToolRun xml = runTool(QStringLiteral("xmllint"), QStringLiteral("libxml2-utils"),
                                    {QStringLiteral("--noout"), svg});
        !xml.error.isEmpty())
        return xml.error;
    const QString drawn = svg + QStringLiteral(".rsvg.png");
    if (const ToolRun rsvg = runTool(QStringLiteral("rsvg-convert"), QStringLiteral("librsvg2-bin"),
                                     {QStringLiteral("-o"), drawn, svg});
        !rsvg.error.isEmpty())
        return rsvg.error;
    return QImageReader(drawn).read().isNull() ? QStringLiteral("rsvg-convert drew nothing from %1").arg(svg)
                                               : QString();
}

// pdfinfo's "Title:" of the PDF, and its XMP packet checked by xmllint; `error` says what failed.
inline QString pdfTitle(const QString& pdf, QString& error) {
    const ToolRun info = runTool(QStringLiteral("pdfinfo"), QStringLiteral("poppler-utils"), {pdf});
    if (!info.error.isEmpty()) {
        error = info.error;
        return {};
    }
    const ToolRun meta =
        runTool(QStringLiteral("pdfinfo"), QStringLiteral("poppler-utils"), {QStringLiteral("-meta"), pdf});
    if (!meta.error.isEmpty() || !meta.out.contains("<x:xmpmeta")) {
        error = meta.error.isEmpty() ? QStringLiteral("no XMP packet in %1").arg(pdf) : meta.error;
        return {};
    }
    const QByteArray packet =
        meta.out.mid(meta.out.indexOf("<x:xmpmeta"),
                     meta.out.indexOf("</x:xmpmeta>") + 12 - meta.out.indexOf("<x:xmpmeta"));
    if (const ToolRun xml = runTool(QStringLiteral("xmllint"), QStringLiteral("libxml2-utils"),
                                    {QStringLiteral("--noout"), QStringLiteral("-")}, packet);
        !xml.error.isEmpty()) {
        error = QStringLiteral("the XMP packet: ") + xml.error;
        return {};
    }
    for (const QByteArray& line : info.out.split('\n'))
        if (line.startsWith("Title:"))
            return QString::fromUtf8(line.mid(6)).trimmed();
    error = QStringLiteral("pdfinfo shows no title for %1").arg(pdf);
    return {};
}

// The PNG's text chunk `key`, as libpng reads it.
inline QString pngText(const QString& png, const QString& key) {
    QImageReader reader(png);
    return reader.text(key);
}

} // namespace la::test

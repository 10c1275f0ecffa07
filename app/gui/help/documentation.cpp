// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/help/documentation.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace la {

namespace {

// A document's title: its first "# " line, else its file name.
QString titleOf(const QString& path) {
    QFile file(path);
    if (file.open(QIODevice::ReadOnly))
        for (int line = 0; line < 5 && !file.atEnd(); ++line)
            if (const QString text = QString::fromUtf8(file.readLine(4096)).trimmed(); text.startsWith(u"# "))
                return text.mid(2).remove(QLatin1Char('`')); // a title, not Markdown
    return QFileInfo(path).completeBaseName();
}

} // namespace

QString documentationDir() {
    for (const QString& dir :
         {QStringLiteral(LOOKAHEAD_INSTALLED_DOCS), QStringLiteral(LOOKAHEAD_SOURCE_DOCS)})
        if (QFileInfo::exists(dir + QStringLiteral("/read-stream-model.md")))
            return dir;
    return {};
}

QStringList documentationEntries(const QString& dir) {
    QStringList entries;
    if (dir.isEmpty())
        return entries;
    for (const QString& name : QDir(dir).entryList({QStringLiteral("*.md")}, QDir::Files))
        entries << titleOf(dir + QLatin1Char('/') + name) + QLatin1Char('\t') + name;
    std::sort(entries.begin(), entries.end());
    return entries;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/help_menu.h"

#include "gui/docs_viewer.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

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

QStringList shortcutLines(const QWidget* window) {
    QStringList lines;
    for (const QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcut().isEmpty() || action->text().isEmpty())
            continue;
        const QString line = QString(action->text()).remove(QLatin1Char('&')) + QLatin1Char('\t') +
                             action->shortcut().toString(QKeySequence::NativeText);
        if (!lines.contains(line))
            lines << line;
    }
    std::sort(lines.begin(), lines.end());
    lines << QObject::tr("Plots: drag\tpan (all plots follow)") << QObject::tr("Plots: wheel\tzoom")
          << QObject::tr("Plots: double-click\treset the zoom");
    return lines;
}

void addHelpEntries(QMenu* help, QWidget* window) {
    help->addAction(QObject::tr("&Keyboard shortcuts"), window, [window] {
        QString rows;
        for (const QString& line : shortcutLines(window))
            rows += QStringLiteral("<tr><td>%1</td><td>&nbsp;&nbsp;<b>%2</b></td></tr>")
                        .arg(line.section(QLatin1Char('\t'), 0, 0).toHtmlEscaped(),
                             line.section(QLatin1Char('\t'), 1).toHtmlEscaped());
        auto* box = new QMessageBox(QMessageBox::NoIcon, QObject::tr("Keyboard shortcuts"),
                                    QStringLiteral("<table>%1</table>").arg(rows), QMessageBox::Ok, window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    // The documents open in the program's own viewer: a desktop without a Markdown viewer (or none
    // at all) still shows them.
    QMenu* docs = help->addMenu(QObject::tr("&Documentation"));
    const QString dir = documentationDir();
    for (const QString& entry : documentationEntries(dir)) {
        const QString file = entry.section(QLatin1Char('\t'), 1);
        docs->addAction(entry.section(QLatin1Char('\t'), 0, 0),
                        [window, file] { DocsViewer::showDocument(window, file); });
    }
    if (dir.isEmpty())
        docs->addAction(QObject::tr("Where is it?"), [window] { DocsViewer::showDocument(window); });
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

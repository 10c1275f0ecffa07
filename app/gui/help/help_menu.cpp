// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/help/help_menu.h"

#include "gui/help/docs_viewer.h"
#include "gui/help/documentation.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>

#include <algorithm>

namespace la {

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

} // namespace la

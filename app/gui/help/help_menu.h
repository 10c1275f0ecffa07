// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

class QMenu;
class QWidget;

namespace la {

// Help's entries besides About: the keyboard shortcuts and the documentation that ships with the
// program (docs/*.md, installed in its doc directory), each opened in the program's own viewer
// (docs_viewer.h).
void addHelpEntries(QMenu* help, QWidget* window);

// "Run\tCtrl+R" for every action of `window` that has a shortcut, and the mouse's gestures on the
// plots: the lines of the Keyboard shortcuts dialog.
QStringList shortcutLines(const QWidget* window);

} // namespace la

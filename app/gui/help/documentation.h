// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The documentation that ships with the program: where it is and what it holds, for the Help menu
// and the viewer alike.

#include <QString>
#include <QStringList>

namespace la {

// The folder of the documentation: the installed one, else the source tree's (a build run in
// place); empty if neither is there.
QString documentationDir();
// Its documents, each its title (the first "# " line), a tab and its file name, sorted by title;
// none for an empty `dir`.
QStringList documentationEntries(const QString& dir);

} // namespace la

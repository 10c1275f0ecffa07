// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QString>

class QLabel;
class QListWidget;
class QTextBrowser;

namespace la {

// Help → Documentation: the Markdown documents that ship with the program (documentationDir()),
// rendered by Qt, in a window of the program's own, so they open wherever it runs (no desktop viewer
// needed). The list on the left holds every document by its title; links between them follow, links
// to the web go to the browser. The folder they are read from is named at the bottom.
class DocsViewer : public QDialog {
    Q_OBJECT
public:
    // The viewer of `window` (created on first use) showing `file` (a name in the folder, e.g.
    // "repeats.md"; empty: the first document), raised.
    static DocsViewer* showDocument(QWidget* window, const QString& file = {});

    // The document shown (its file name) and its text as rendered (tests read the words).
    QString currentFile() const;
    QString renderedText() const;
    QStringList titles() const;

private:
    explicit DocsViewer(const QString& dir, QWidget* parent);
    void open(const QString& file);

    QString m_dir;
    QListWidget* m_list;
    QTextBrowser* m_browser;
    QLabel* m_where;
};

} // namespace la

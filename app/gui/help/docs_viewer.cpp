// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/help/docs_viewer.h"

#include "gui/help/documentation.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace la {

namespace {

constexpr int kFileRole = Qt::UserRole;

} // namespace

DocsViewer* DocsViewer::showDocument(QWidget* window, const QString& file) {
    auto* viewer = window->findChild<DocsViewer*>(QString(), Qt::FindDirectChildrenOnly);
    if (!viewer)
        viewer = new DocsViewer(documentationDir(), window);
    viewer->open(file);
    viewer->show();
    viewer->raise();
    viewer->activateWindow();
    return viewer;
}

DocsViewer::DocsViewer(const QString& dir, QWidget* parent)
    : QDialog(parent), m_dir(dir), m_list(new QListWidget(this)), m_browser(new QTextBrowser(this)),
      m_where(new QLabel(this)) {
    setWindowTitle(tr("Lookahead documentation"));
    setWindowFlag(Qt::Window);
    m_browser->setOpenExternalLinks(true);
    m_browser->setSearchPaths({dir});
    for (const QString& entry : documentationEntries(dir)) {
        auto* item = new QListWidgetItem(entry.section(QLatin1Char('\t'), 0, 0), m_list);
        item->setData(kFileRole, entry.section(QLatin1Char('\t'), 1));
        item->setToolTip(QDir(dir).filePath(item->data(kFileRole).toString()));
    }
    m_list->setWordWrap(true);
    auto* split = new QSplitter(this);
    split->addWidget(m_list);
    split->addWidget(m_browser);
    split->setStretchFactor(1, 1);
    split->setSizes({240, 760});
    // Where the files are, for a reader who wants them in an editor or a browser of their own.
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_where->setWordWrap(true);
    m_where->setText(dir.isEmpty()
                         ? tr("The documentation is not installed: it belongs in %1")
                               .arg(QStringLiteral(LOOKAHEAD_INSTALLED_DOCS))
                         : tr("These are the Markdown files in %1").arg(QDir::toNativeSeparators(dir)));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* folder = buttons->addButton(tr("Open the folder"), QDialogButtonBox::ActionRole);
    folder->setEnabled(!dir.isEmpty());
    connect(folder, &QPushButton::clicked, this, [this] {
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(m_dir)))
            m_where->setText(
                tr("No file manager to open it: the files are in %1").arg(QDir::toNativeSeparators(m_dir)));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_where, 1);
    bottom->addWidget(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);
    connect(m_list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item && item->data(kFileRole).toString() != currentFile())
            open(item->data(kFileRole).toString());
    });
    // A link to another document (docs/*.md link each other) selects it in the list.
    connect(m_browser, &QTextBrowser::sourceChanged, this, [this](const QUrl& url) {
        const QString file = QFileInfo(url.path()).fileName();
        for (int i = 0; i < m_list->count(); ++i)
            if (m_list->item(i)->data(kFileRole).toString() == file) {
                const QSignalBlocker block(m_list);
                m_list->setCurrentRow(i);
            }
    });
    // As large as a screen allows: the documents have wide tables.
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1280, 720);
    resize(QSize(1100, 800).boundedTo(available * 0.9));
}

void DocsViewer::open(const QString& file) {
    if (m_list->count() == 0)
        return;
    QString name = file;
    if (name.isEmpty())
        name = m_list->item(0)->data(kFileRole).toString();
    m_browser->setSource(QUrl::fromLocalFile(QDir(m_dir).filePath(name)), QTextDocument::MarkdownResource);
}

QString DocsViewer::currentFile() const {
    return QFileInfo(m_browser->source().path()).fileName();
}

QString DocsViewer::renderedText() const {
    return m_browser->toPlainText();
}

QStringList DocsViewer::titles() const {
    QStringList titles;
    for (int i = 0; i < m_list->count(); ++i)
        titles << m_list->item(i)->text();
    return titles;
}

} // namespace la

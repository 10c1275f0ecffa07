// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/window_dialogs.h"

#include "gui/settings/setting_words.h"

#include <QFileDialog>
#include <QStatusBar>

namespace la {

void WindowDialogs::showError(const QString& title, const QString& text) {
    if (m_errorDialog)
        m_errorDialog->close();
    // Messages name settings as the command line spells them: the window says which control it is.
    auto* box = new QMessageBox(QMessageBox::Warning, title, windowWording(text), QMessageBox::Ok, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_errorDialog = box;
    box->open();
}

void WindowDialogs::showStatus(const QString& text, int timeoutMs) const {
    m_window->statusBar()->showMessage(windowWording(text), timeoutMs);
}

void WindowDialogs::chooseFile(const QString& title, const QString& filter, bool save,
                               const std::function<void(const QString&)>& then) const {
    auto* dialog = new QFileDialog(m_window, title, QString(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(save ? QFileDialog::AcceptSave : QFileDialog::AcceptOpen);
    dialog->setFileMode(save ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    QObject::connect(dialog, &QFileDialog::fileSelected, m_window, then);
    dialog->open();
}

QString statusLine(const QString& message) {
    const QString line = message.section(QLatin1Char('\n'), 0, 0);
    return line.size() > 140 ? line.left(139) + QStringLiteral("…") : line;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QString>

#include <functional>

namespace la {

// How the window and the classes it gives side jobs to (sessions, exports, input openers) talk to
// the user: one error dialog at a time, the status bar, file dialogs and a background job's
// progress. Nothing here blocks: each dialog opens with open() and answers through a callback.
class WindowDialogs {
public:
    explicit WindowDialogs(QMainWindow* window) : m_window(window) {}

    QMainWindow* window() const { return m_window; }
    // Closes the error dialog on screen, if any, and shows this one.
    void showError(const QString& title, const QString& text);
    // The error dialog on screen, if any (tests check it without blocking).
    QMessageBox* errorDialog() const { return m_errorDialog; }
    void showStatus(const QString& text, int timeoutMs = 0) const;
    // Asks for a file to open (an existing one) or to save; `then` gets the path chosen.
    void chooseFile(const QString& title, const QString& filter, bool save,
                    const std::function<void(const QString&)>& then) const;

    // A progress dialog with Cancel for a background job (SessionJob, EventCsvExport, ObservedImportJob):
    // it shows after half a second and stays until the caller closes it when the job has finished.
    template <typename Job>
    QProgressDialog* jobProgress(Job* job, const QString& title, const QString& label) const {
        auto* progress = new QProgressDialog(label, QObject::tr("Cancel"), 0, 1000, m_window);
        progress->setAttribute(Qt::WA_DeleteOnClose);
        progress->setWindowTitle(title);
        progress->setMinimumDuration(500);
        progress->setAutoClose(false);
        progress->setAutoReset(false);
        QObject::connect(progress, &QProgressDialog::canceled, job, &Job::cancel);
        QObject::connect(job, &Job::progressChanged, progress, [progress](double fraction) {
            progress->setValue(static_cast<int>(fraction * 1000.0));
        });
        return progress;
    }

private:
    QMainWindow* m_window;
    QPointer<QMessageBox> m_errorDialog;
};

// A message fit for the one-line status bar: its first line, cut short.
QString statusLine(const QString& message);

} // namespace la

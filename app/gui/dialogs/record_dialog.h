// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/jobs/job_thread.h"
#include "record/recorder.h"

#include <QDialog>
#include <QMutex>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;

namespace la {

// File → Record a query: a connection, a query and how to record it. Record runs the recording on
// a worker thread, each step shown as it begins; Cancel stops it at any point, the server left as
// it was. On success it emits recorded() with what replays it, and closes. What was typed is kept
// for next time, but never the password.
class RecordDialog : public QDialog {
    Q_OBJECT
public:
    // The trace and the files beside it go to `workDirectory` (an empty directory of ours).
    RecordDialog(QString workDirectory, QWidget* parent = nullptr);
    ~RecordDialog() override;

    // For tests: the fields, and the step or error shown.
    QLineEdit* connectionField() const { return m_conninfo; }
    QPlainTextEdit* queryField() const { return m_query; }
    QLineEdit* settingsField() const { return m_settings; }
    QString status() const;
    void startRecording();
    // Cancel: stops a recording (the dialog stays, saying how it ended), else closes.
    void reject() override;

signals:
    void recorded(const Recording& recording);
    // The step or error shown changed (status() says it).
    void statusChanged();

private:
    void setStatus(const QString& status, Qt::TextFormat format = Qt::PlainText);
    void showProgress();
    void finishRecording();
    RecordRequest request() const;

    QString m_workDirectory;
    QLineEdit* m_conninfo = nullptr;
    QLineEdit* m_password = nullptr;
    QPlainTextEdit* m_query = nullptr;
    QLineEdit* m_settings = nullptr;
    QLineEdit* m_visitsQuery = nullptr;
    QComboBox* m_policy = nullptr;
    QCheckBox* m_cold = nullptr;
    QLabel* m_step = nullptr;
    QLabel* m_notes = nullptr;
    QProgressBar* m_busy = nullptr;
    QDialogButtonBox* m_buttons = nullptr;

    // Written by the worker, read on the GUI thread.
    mutable QMutex m_mutex;
    QString m_currentStep;
    QStringList m_noted;
    Recording m_recording;
    QString m_error;
    JobThread m_job; // last: it joins the worker before the members above go
};

} // namespace la

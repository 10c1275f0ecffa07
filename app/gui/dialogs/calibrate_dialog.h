// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/jobs/job_thread.h"
#include "io/device_calibration.h"

#include <QDialog>
#include <QString>

#include <atomic>
#include <mutex>
#include <string>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace la {

// "Calibrate this disk…": runs `lookahead calibrate` on a worker thread (a scratch file in the
// dataset cache directory, about 12 s) with a progress bar and Cancel, writes the profile, and
// offers to use it ("Use this profile"). The GUI thread never waits on the disk.
class CalibrateDialog : public QDialog {
    Q_OBJECT
public:
    // `cacheDir`: where the scratch file goes (the run's --cache-dir, empty for the default).
    CalibrateDialog(const std::string& cacheDir, QWidget* parent = nullptr);
    ~CalibrateDialog() override;

    // The profile written, once the user chose to use it (the dialog is then accepted).
    QString profilePath() const { return m_profilePath; }
    QPushButton* startButton() const { return m_start; }
    // Shown once a profile is written: accepts the dialog with it.
    QPushButton* useButton() const { return m_use; }
    QLineEdit* pathEdit() const { return m_path; }
    // For tests: how long the measurement runs (the default is the command line's).
    void setSeconds(double seconds) { m_settings.seconds = seconds; }
    void setScratchBytes(std::uint64_t bytes) { m_settings.scratchBytes = bytes; }

signals:
    // The measurement ended: `error` is empty on success, "cancelled" is not an error.
    void calibrationEnded(const QString& error, bool cancelled);

protected:
    void reject() override;

private:
    void start();
    void browse();
    void finished();
    void use();

    CalibrationSettings m_settings;
    std::string m_cacheDir;
    QLineEdit* m_path;
    QProgressBar* m_progress;
    QLabel* m_stage;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QPushButton* m_use;
    QString m_written;
    QString m_profilePath;
    // Written by the worker, read on the GUI thread.
    std::mutex m_lock;
    std::string m_stageText;
    std::string m_notices;
    double m_fraction = 0.0;
    std::string m_error;
    bool m_cancelled = false;
    JobThread m_job; // last: it joins the worker before the members above go
};

} // namespace la

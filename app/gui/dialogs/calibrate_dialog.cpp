// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/dialogs/calibrate_dialog.h"

#include "experiment/device_profile_json.h"
#include "files/output_file.h"
#include "gui/settings/setting_words.h"
#include "input_error.h"
#include "io_backend.h"
#include "scan_target.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <memory>

namespace la {

namespace {

QString defaultProfilePath() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(dir).filePath(QStringLiteral("profiles/this-disk.json"));
}

} // namespace

CalibrateDialog::CalibrateDialog(const std::string& cacheDir, QWidget* parent)
    : QDialog(parent), m_cacheDir(cacheDir), m_path(new QLineEdit(defaultProfilePath(), this)),
      m_progress(new QProgressBar(this)), m_stage(new QLabel(this)),
      m_start(new QPushButton(tr("Start"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_use(new QPushButton(tr("Use this profile"), this)), m_job(this, QStringLiteral("calibrate")) {
    setWindowTitle(tr("Calibrate this disk"));
    RunConfig where;
    where.cacheDir = cacheDir;
    QString dir;
    try {
        dir = QString::fromStdString(datasetCacheDir(where));
    } catch (const InputError& error) {
        dir = tr("(no dataset cache directory: %1)").arg(QString::fromUtf8(error.what()));
    }
    auto* intro = new QLabel(
        tr("Measures the disk that holds the dataset cache directory\n%1\n"
           "8 kB random reads (O_DIRECT) 1 to 64 deep, then 128 kB sequential reads: about %2 s. A %3 MiB "
           "scratch file is written there and removed afterwards.\n\nThe profile makes the simulated device "
           "behave like this disk (Device profile, under Advanced settings).")
            .arg(dir)
            .arg(m_settings.seconds, 0, 'f', 0)
            .arg(m_settings.scratchBytes >> 20),
        this);
    intro->setWordWrap(true);
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(new QLabel(tr("Save the profile as"), this));
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_stage->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_start, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    buttons->addButton(m_use, QDialogButtonBox::ActionRole);
    m_use->setVisible(false);
    m_use->setToolTip(tr("Make the simulated device behave like the disk just measured"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(pathRow);
    layout->addWidget(m_progress);
    layout->addWidget(m_stage);
    layout->addWidget(buttons);
    connect(browse, &QPushButton::clicked, this, &CalibrateDialog::browse);
    connect(m_start, &QPushButton::clicked, this, &CalibrateDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &CalibrateDialog::reject);
    connect(m_use, &QPushButton::clicked, this, &CalibrateDialog::use);
    resize(560, sizeHint().height());
}

CalibrateDialog::~CalibrateDialog() = default;

void CalibrateDialog::browse() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the device profile"), m_path->text(),
                                                      tr("Device profiles (*.json)"));
    if (!path.isEmpty())
        m_path->setText(path);
}

void CalibrateDialog::reject() {
    if (m_job.running()) {
        // The worker stops at its next read; finished() then closes nothing, the user can start again.
        m_job.cancel();
        m_stage->setText(tr("Cancelling…"));
        return;
    }
    QDialog::reject();
}

void CalibrateDialog::start() {
    const QString path = m_path->text().trimmed();
    if (path.isEmpty()) {
        m_stage->setText(tr("Give a file to save the profile in."));
        return;
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::shared_ptr<OutputFile> output;
    try {
        RunConfig where;
        where.cacheDir = m_cacheDir;
        m_settings.scratchDir = datasetCacheDir(where);
        // Opened here: a profile that cannot be written is known before the measurement.
        output = std::make_shared<OutputFile>(path.toStdString(), "device profile");
    } catch (const InputError& error) {
        m_stage->setText(windowWording(QString::fromUtf8(error.what())));
        return;
    }
    m_start->setEnabled(false);
    m_path->setEnabled(false);
    m_use->setVisible(false);
    m_progress->setValue(0);
    m_error.clear();
    m_notices.clear();
    m_cancelled = false;
    const CalibrationSettings settings = m_settings;
    m_job.start(
        [this, settings, output] {
            CalibrationCallbacks callbacks;
            callbacks.cancel = m_job.cancelFlag();
            callbacks.progress = [this](const std::string& stage, double fraction) {
                const std::scoped_lock guard(m_lock);
                m_stageText = stage;
                m_fraction = fraction;
            };
            callbacks.notice = [this](const std::string& text) {
                const std::scoped_lock guard(m_lock);
                m_notices += text + "\n";
            };
            std::string error;
            bool cancelled = false;
            try {
                const DeviceCalibration calibration = calibrateDevice(settings, callbacks);
                cancelled = calibration.cancelled;
                if (!cancelled)
                    commitDeviceProfile(*output, calibration, "lookahead (window) calibrate");
            } catch (const InputError& e) {
                error = e.what();
            } catch (const IoError& e) {
                error = e.what();
            }
            const std::scoped_lock guard(m_lock);
            m_error = error;
            m_cancelled = cancelled;
        },
        [this] {
            const std::scoped_lock guard(m_lock);
            m_progress->setValue(int(m_fraction * 1000.0));
            m_stage->setText(QString::fromStdString(m_notices + m_stageText));
        },
        [this] { finished(); });
}

void CalibrateDialog::finished() {
    m_start->setEnabled(true);
    m_path->setEnabled(true);
    QString error;
    bool cancelled = false;
    {
        const std::scoped_lock guard(m_lock);
        error = QString::fromStdString(m_error);
        cancelled = m_cancelled;
    }
    if (cancelled || !error.isEmpty()) {
        m_stage->setText(cancelled ? tr("Cancelled; no profile written.") : windowWording(error));
        emit calibrationEnded(error, cancelled);
        return;
    }
    m_progress->setValue(1000);
    m_stage->setText(tr("Profile written to %1").arg(m_path->text()));
    m_written = m_path->text().trimmed();
    m_use->setVisible(true);
    m_use->setDefault(true);
    emit calibrationEnded({}, false);
}

void CalibrateDialog::use() {
    m_profilePath = m_written;
    accept();
}

} // namespace la

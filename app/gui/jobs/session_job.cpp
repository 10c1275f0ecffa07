// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/jobs/session_job.h"

#include "experiment/explain_output.h"
#include "input_error.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace la {

SessionJob::SessionJob(QString path, QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_job(this, QStringLiteral("lookahead-session")) {}

SessionJob* SessionJob::save(QString path, Experiment experiment, std::vector<RunSummary> summaries,
                             std::vector<std::shared_ptr<const EventSpool>> spools, QObject* parent) {
    auto* job = new SessionJob(std::move(path), parent);
    job->m_saving = true;
    job->m_experiment = std::move(experiment);
    job->m_summaries = std::move(summaries);
    job->m_spools = std::move(spools);
    return job;
}

SessionJob* SessionJob::open(QString path, QObject* parent, bool keepEvents) {
    auto* job = new SessionJob(std::move(path), parent);
    job->m_keepEvents = keepEvents;
    return job;
}

SessionJob::~SessionJob() = default;

void SessionJob::start() {
    m_job.start([this] { work(); }, [this] { emit progressChanged(m_fraction.load()); },
                [this] { emit finished(QString::fromStdString(m_error)); });
}

void SessionJob::work() {
    const std::string path = m_path.toStdString();
    // An open reads the events, then writes the kept files back: each its share of the bar by bytes.
    double from = 0.0, share = 1.0;
    const auto progress = [&](std::uint64_t done, std::uint64_t total) {
        m_fraction =
            from + share * (total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0);
    };
    if (m_saving) {
        m_error = saveSpooledSession(path, m_experiment, m_summaries, m_spools, m_job.cancelFlag(), progress);
        return;
    }
    try {
        m_opened = openSession(path);
        const double keptBytes = static_cast<double>(m_opened.reader->runFileBytes());
        share = keptBytes > 0
                    ? 1.0 - keptBytes / std::max(keptBytes, static_cast<double>(QFileInfo(m_path).size()))
                    : 1.0;
        m_traces = sessionTraces(m_opened, m_job.cancelFlag(), progress, m_keepEvents ? &m_spools : nullptr);
        from = share;
        share = 1.0 - share;
        if (m_traces.empty() || !keepRunInputs(progress))
            m_error = "cancelled: '" + path + "' was not opened";
    } catch (const InputError& error) {
        m_error = error.what();
    }
}

// A recording's runs read files of the recording's, gone with it: the observed run its EXPLAIN output,
// the model its visits and cache state. The session keeps them, and they go back into files of ours
// so that the panel names them and a new run reads the same.
bool SessionJob::keepRunInputs(const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
    auto dir = std::make_unique<QTemporaryDir>();
    if (!dir->isValid()) {
        m_keptError = dir->errorString();
        return true;
    }
    m_keptError = QString::fromStdString(keepRunFiles(m_opened, dir->path(), m_job.cancelFlag(), progress));
    if (m_job.cancelFlag()->load())
        return false; // the directory goes, with what was written of the lists
    if (m_keptError.isEmpty())
        m_keptError = keepRecordedExplain(*dir);
    m_keptDir = std::move(dir);
    return true;
}

QString SessionJob::keepRecordedExplain(const QTemporaryDir& dir) {
    RunVariant& observed = m_opened.experiment.runs.front();
    const QByteArray plan = recordedExplain(m_opened.experiment.recorded);
    if (!observed.observed || plan.isEmpty())
        return {};
    QFile file(dir.filePath(QStringLiteral("plan.json")));
    if (!file.open(QIODevice::WriteOnly) || file.write(plan) != plan.size() || !file.flush())
        return file.errorString();
    observed.explainPath = file.fileName().toStdString();
    return {};
}

} // namespace la

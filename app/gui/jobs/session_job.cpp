// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/jobs/session_job.h"

#include "experiment/explain_output.h"
#include "input_error.h"

#include <QFile>

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
    const auto progress = [this](std::uint64_t done, std::uint64_t total) {
        m_fraction = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
    };
    if (m_saving) {
        m_error = saveSpooledSession(path, m_experiment, m_summaries, m_spools, m_job.cancelFlag(), progress);
        return;
    }
    try {
        m_opened = openSession(path);
        m_traces = sessionTraces(m_opened, m_job.cancelFlag(), progress, m_keepEvents ? &m_spools : nullptr);
        if (m_traces.empty())
            m_error = "cancelled: '" + path + "' was not opened";
        else
            keepRecordedExplain();
    } catch (const InputError& error) {
        m_error = error.what();
    }
}

// A recording's observed run read its EXPLAIN output from a file of the recording's, gone with it: the
// session keeps the plan, which goes back into a file of ours so that the panel names it and a new
// run reads the same figures.
void SessionJob::keepRecordedExplain() {
    RunVariant& observed = m_opened.experiment.runs.front();
    const QByteArray plan = recordedExplain(m_opened.experiment.recorded);
    if (!observed.observed || plan.isEmpty())
        return;
    auto dir = std::make_unique<QTemporaryDir>();
    QFile file(dir->filePath(QStringLiteral("plan.json")));
    if (!dir->isValid() || !file.open(QIODevice::WriteOnly) || file.write(plan) != plan.size() ||
        !file.flush()) {
        m_explainError = dir->isValid() ? file.errorString() : dir->errorString();
        return;
    }
    observed.explainPath = file.fileName().toStdString();
    m_explainDir = std::move(dir);
}

} // namespace la

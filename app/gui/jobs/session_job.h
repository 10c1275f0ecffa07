// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/session_traces.h"
#include "gui/jobs/job_thread.h"

#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace la {

// Saves the runs on screen to a session, or opens one and rebuilds its traces, on a worker thread
// with progress and cancel, so that the window stays responsive for a 10 M-block session. The
// worker touches only what it was given; the window takes the result after finished().
class SessionJob : public QObject {
    Q_OBJECT
public:
    // Writes `experiment` with its runs' spools to `path` (atomically: a cancelled save leaves an
    // existing file as it was).
    static SessionJob* save(QString path, Experiment experiment, std::vector<RunSummary> summaries,
                            std::vector<std::shared_ptr<const EventSpool>> spools, QObject* parent);
    // Reads `path` and rebuilds its traces; with `keepEvents`, also spools of their events (spools()),
    // so that they can be saved again beside new runs.
    static SessionJob* open(QString path, QObject* parent, bool keepEvents = false);
    ~SessionJob() override;

    void start();
    void cancel() { m_job.cancel(); }
    const QString& path() const { return m_path; }
    // After finished("") of an open: the session and its traces.
    OpenedSession& opened() { return m_opened; }
    std::vector<std::unique_ptr<RunTrace>>& traces() { return m_traces; }
    std::vector<std::shared_ptr<const EventSpool>>& spools() { return m_spools; }
    // The files the runs read that the session keeps (a recording's EXPLAIN output, a modelled run's
    // block and prewarm lists), written where the runs read them again: the directory lives as long
    // as the caller keeps it. Why they could not be written, if they could not.
    std::unique_ptr<QTemporaryDir> takeKeptDir() { return std::move(m_keptDir); }
    const QString& keptError() const { return m_keptError; }

signals:
    void progressChanged(double fraction);
    // `error` is empty on success.
    void finished(const QString& error);

private:
    SessionJob(QString path, QObject* parent);
    void work();
    // False if cancelled while the kept files were written.
    bool keepRunInputs(const std::function<void(std::uint64_t done, std::uint64_t total)>& progress);
    QString keepRecordedExplain(const QTemporaryDir& dir);

    QString m_path;
    bool m_saving = false;
    bool m_keepEvents = false;
    Experiment m_experiment;
    std::vector<RunSummary> m_summaries;
    std::vector<std::shared_ptr<const EventSpool>> m_spools;
    OpenedSession m_opened;
    std::vector<std::unique_ptr<RunTrace>> m_traces;
    std::unique_ptr<QTemporaryDir> m_keptDir;
    QString m_keptError;
    std::atomic<double> m_fraction{0.0};
    std::string m_error; // written by the worker, read after it is joined
    JobThread m_job;     // last: it joins the worker before the members above go
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment.h"
#include "run.h"
#include "run_mailbox.h"
#include "run_trace.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

namespace la {

// Runs an experiment (policy A, then policy B if asked for, on the same dataset and cache state) on a
// worker thread and turns its event batches into RunTraces on the GUI thread. Data flows one way:
// the worker posts to a Mailbox, a timer drains it at 30 Hz; no Qt object crosses threads. Each
// start() bumps the generation: a run still going is cancelled and whatever it still says is dropped.
class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Runs the experiment's runs one after the other. Bad input found before the worker starts (an
    // unknown policy) is reported through failed(). `traceCsvPath`: also write every event there as CSV.
    void start(const Experiment& experiment, const QString& traceCsvPath = {});
    // A, then B if config.comparePolicy names a policy.
    void start(const RunConfig& config, const QString& traceCsvPath = {});
    // Asks the worker to stop; finished(true) follows once it has.
    void stop();
    // Cancels and joins every worker (the window is closing).
    void shutdown();

    bool running() const { return m_job != nullptr; }
    quint64 generation() const { return m_generation; }
    const Experiment& experiment() const { return m_experiment; }
    const std::vector<RunVariant>& variants() const { return m_experiment.runs; }
    // A's settings (the caption and the summary JSON describe the experiment by them).
    const RunConfig& config() const;
    std::vector<const RunTrace*> traces() const;
    // Summaries of the runs that have finished, in order.
    std::vector<RunSummary> summaries() const;

signals:
    // New traces exist (one per policy, empty so far): views should switch to traces().
    void started();
    void runStarted(int run, int runs);
    void dataArrived();
    void progressChanged(int run, int runs, quint64 done, quint64 total);
    void preparing(const QString& stage, quint64 done, quint64 total);
    void runFinished(int run);
    void notice(const QString& text);
    void failed(const QString& message);
    // The worker is gone and everything it produced has been delivered.
    void finished(bool cancelled);

private:
    struct Job;
    void drain();
    void handle(WorkerMessage& message, bool& grew);
    void finishJob();
    void reapRetired();

    std::unique_ptr<Job> m_job;
    std::vector<std::unique_ptr<Job>> m_retired;
    QTimer m_timer;
    quint64 m_generation = 0;
    Experiment m_experiment;
    std::vector<std::unique_ptr<RunTrace>> m_traces;
    WorkerProgress m_lastProgress;
};

} // namespace la

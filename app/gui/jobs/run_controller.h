// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "gui/jobs/run_mailbox.h"
#include "model_thread.h"
#include "run.h"
#include "run_trace.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <memory>
#include <vector>

namespace la {

// Runs an experiment (policy A, then policy B if asked for, on the same dataset and cache state) on a
// worker thread and turns its event batches into RunTraces on the model thread. Data flows one way:
// the worker posts to a Mailbox; the model thread feeds its event batches to the traces as they come,
// and a GUI timer takes the other messages (a run started or finished, errors) at 30 Hz and acts on
// them, holding the model's lock; no Qt object crosses threads. Each start() bumps the generation: a
// run still going is cancelled and whatever it still says is dropped.
// The runs on screen stay until the new experiment's first events arrive, so a start that fails
// (a bad file, a block list beyond its end) leaves them as they were. Once the worker is gone, a run
// that never ran (after one that was stopped or failed) is no longer shown: none is left going.
class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Runs the experiment's runs one after the other. Bad input found before the worker starts (an
    // unknown policy) is reported through failed() and nothing starts.
    void start(const Experiment& experiment);
    // Runs only B of `experiment`, beside `baseline`: run A's trace as it was saved, with its summary
    // (session_traces.h). Both are shown on the same axes, as a live A/B pair is. `baselineEvents`
    // (may be null) are A's events kept again, so that the pair can be saved as a new session.
    void startAgainst(const Experiment& experiment, std::unique_ptr<RunTrace> baseline,
                      std::shared_ptr<const EventSpool> baselineEvents);
    // A, then B if config.comparePolicy names a policy.
    void start(const RunConfig& config);
    // Shows a saved experiment (traces rebuilt with their summaries, session_traces.h) as a finished
    // run: tracesChanged() then finished(false). A run still going is cancelled and what it still
    // says is dropped. Its runs have no spools: they are in their session file already.
    void showLoaded(Experiment experiment, std::vector<std::unique_ptr<RunTrace>> traces);
    // Asks the worker to stop; finished(true) follows once it has.
    void stop();
    // Cancels and joins every worker (the window is closing).
    void shutdown();
    // Keep every event of each run in a spool file, for exports of what is on screen (default on).
    void setKeepEvents(bool keep) { m_keepEvents = keep; }
    // The thread that feeds the traces; the views bin on it too (Dashboard::setModelThread). Whoever
    // reads the traces from the GUI thread while a run goes holds its lock (ModelThread::Hold); the
    // signals below are emitted with it held.
    ModelThread& modelThread() { return m_model; }

    bool running() const { return m_job != nullptr; }
    quint64 generation() const { return m_generation; }
    // The experiment on screen (not the one starting, until its first events arrive).
    const Experiment& experiment() const { return m_shown.experiment; }
    const std::vector<RunVariant>& variants() const { return m_shown.experiment.runs; }
    // For each of experiment().notes, as far as runs said them: the run that said it (a notice of its
    // own), -1 for a note of the experiment as a whole. A saved session keeps no such link.
    const std::vector<int>& noteRuns() const { return m_shown.noteRuns; }
    // The experiment the worker runs now (or ran last).
    const Experiment& runningExperiment() const { return m_running.experiment; }
    const std::vector<int>& runningNoteRuns() const { return m_running.noteRuns; }
    // A's settings (the caption and the summary JSON describe the experiment by them).
    const RunConfig& config() const;
    std::vector<const RunTrace*> traces() const;
    // Summaries of the runs that have finished, in order.
    std::vector<RunSummary> summaries() const;
    // Every event of each finished run on screen, in order (null where none were kept).
    std::vector<std::shared_ptr<const EventSpool>> spools() const;

signals:
    // The worker started (the runs on screen stay until tracesChanged()).
    void started();
    // New traces are on screen (one per run, empty so far): views should switch to traces().
    void tracesChanged();
    void runStarted(int run, int runs);
    // Repeat `repeat` (0-based) of `repeats` of run `run` starts (docs/repeats.md); runStarted()
    // follows for each run once all have gone, its median repeat then drawn again.
    void repeatStarted(int run, int repeat, int repeats);
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
    // An experiment and what the views draw of it.
    struct RunSet {
        Experiment experiment;
        std::vector<std::unique_ptr<RunTrace>> traces;
        std::vector<std::shared_ptr<const EventSpool>> spools;
        std::vector<int> noteRuns; // for experiment.notes, as far as a run said them
    };
    void launch(const Experiment& experiment, std::unique_ptr<RunTrace> baseline,
                std::shared_ptr<const EventSpool> baselineEvents);
    void drain();
    // On the model thread, with its lock held: feeds the running job's event batches to the traces.
    bool feed(ModelThread::Clock::time_point deadline);
    void handle(WorkerMessage& message);
    void show();
    void finishJob();
    void dropRunsThatDidNotRun();
    void restartTrace(std::size_t run);
    void reapRetired();

    // First, so that it goes last: its task reads every member below. Stopped in the destructor.
    ModelThread m_model;
    int m_feedTask = 0;
    std::atomic<bool> m_fed{false}; // the model thread fed events since the last drain
    std::unique_ptr<Job> m_job;
    std::vector<std::unique_ptr<Job>> m_retired;
    QTimer m_timer;
    QTimer m_retry; // drains again soon when the model thread had the lock
    quint64 m_generation = 0;
    RunSet m_shown;
    RunSet m_running;           // the worker's runs: their traces move to m_shown with the first events
    bool m_runningShown = true; // m_running's traces have moved to m_shown
    bool m_keepEvents = true;
    WorkerProgress m_lastProgress;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/jobs/run_controller.h"

#include "experiment/run_storage.h"
#include "experiment/runner.h"
#include "gui/jobs/tsan_annotations.h"
#include "gui/settings/setting_words.h"
#include "input_error.h"
#include "io_backend.h"
#include "thread_priority.h"

#include <QThread>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <limits>

namespace la {

namespace {

// <= 30 Hz: a run's start and end, notices and progress need no more; the events go to the traces
// on the model thread as they come.
constexpr int kDrainIntervalMs = 33;
// When the model thread had the lock, the drain comes back this soon (it has stepped aside by then).
constexpr int kRetryMs = 1;
// Events the model thread feeds to the traces in one take (256 kB): a slice of its work.
constexpr std::size_t kFeedEvents = std::size_t(1) << 13;

// Hands the events the views read of each batch of one run to the mailbox (on the worker thread).
class MailboxSink final : public EventSink {
public:
    MailboxSink(Mailbox& mailbox, int run, const std::atomic<bool>& cancel)
        : m_mailbox(mailbox), m_run(run), m_cancel(cancel) {}
    void onEvents(std::span<const Event> batch) override {
        keepViewed(batch, m_viewed);
        m_mailbox.postEvents(m_run, m_viewed, m_cancel);
    }

private:
    Mailbox& m_mailbox;
    int m_run;
    const std::atomic<bool>& m_cancel;
    std::vector<Event> m_viewed; // reused: batches arrive many times a second
};

WorkerMessage message(WorkerMessage::Kind kind, int run = 0, std::string text = {}) {
    WorkerMessage m;
    m.kind = kind;
    m.run = run;
    m.text = std::move(text);
    return m;
}

// The worker's whole life: runs the experiment from `firstRun` (the runs before it are a saved
// baseline, already on screen); every outcome goes through the mailbox.
void runJob(Experiment experiment, int firstRun, bool keepEvents, Mailbox& mailbox,
            const std::atomic<bool>& cancel) {
    std::vector<std::unique_ptr<MailboxSink>> sinks;
    int current = -1; // the run going, for an error that stops it
    ExperimentOutputs outputs;
    outputs.spoolEvents = keepEvents;
    ExperimentCallbacks callbacks;
    callbacks.runStarted = [&](int run, std::vector<EventSink*>& runSinks) {
        current = run;
        mailbox.post(message(WorkerMessage::Kind::RunStarted, run));
        sinks.push_back(std::make_unique<MailboxSink>(mailbox, run, cancel));
        runSinks.push_back(sinks.back().get());
    };
    callbacks.repeatStarted = [&](int run, int repeat, int repeats, std::vector<EventSink*>& runSinks) {
        current = run;
        WorkerMessage started = message(WorkerMessage::Kind::RunStarted, run);
        started.repeat = repeat;
        started.repeats = repeats;
        mailbox.post(std::move(started));
        sinks.push_back(std::make_unique<MailboxSink>(mailbox, run, cancel));
        runSinks.push_back(sinks.back().get());
    };
    callbacks.runFinished = [&](int run, const RunSummary& summary, std::shared_ptr<EventSpool> spool) {
        WorkerMessage finished = message(WorkerMessage::Kind::RunFinished, run);
        finished.summary = summary;
        finished.spool = std::move(spool);
        mailbox.post(std::move(finished));
    };
    callbacks.progress = [&mailbox](int run, std::uint64_t done, std::uint64_t total) {
        mailbox.setProgress(run, done, total);
    };
    callbacks.preparing = [&mailbox](const std::string& stage, std::uint64_t done, std::uint64_t total) {
        mailbox.setPreparing(stage, done, total);
    };
    callbacks.notice = [&mailbox](int run, const std::string& text) {
        mailbox.post(message(WorkerMessage::Kind::Notice, run, text));
    };
    callbacks.cancel = &cancel;
    try {
        runExperiment(experiment, outputs, callbacks, firstRun);
    } catch (const InputError& error) {
        mailbox.post(message(WorkerMessage::Kind::Error, current, error.what()));
    } catch (const IoError& error) {
        mailbox.post(message(WorkerMessage::Kind::Error, current, error.what()));
    } catch (const std::exception& error) {
        mailbox.post(
            message(WorkerMessage::Kind::Error, current, std::string("unexpected error: ") + error.what()));
    }
    mailbox.post(message(WorkerMessage::Kind::Done));
}

} // namespace

struct RunController::Job {
    quint64 generation = 0;
    Mailbox mailbox;
    std::atomic<bool> cancel{false};
    bool cancelled = false;
    std::unique_ptr<QThread> thread;

    // Joins the worker and takes over what it wrote (see tsan_annotations.h).
    void join() {
        thread->wait();
        LA_TSAN_ACQUIRE(this);
    }
};

RunController::RunController(QObject* parent) : QObject(parent) {
    m_timer.setObjectName(QStringLiteral("run drain")); // names its stalls in the GUI bench
    m_timer.setInterval(kDrainIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &RunController::drain);
    m_retry.setObjectName(QStringLiteral("run drain")); // the same drain, once the lock is free
    m_retry.setSingleShot(true);
    m_retry.setInterval(kRetryMs);
    connect(&m_retry, &QTimer::timeout, this, &RunController::drain);
    m_feedTask = m_model.addTask(ModelThread::Rank::Feed,
                                 [this](ModelThread::Clock::time_point deadline) { return feed(deadline); });
}

RunController::~RunController() {
    shutdown();
    m_model.stop();
}

std::vector<const RunTrace*> RunController::traces() const {
    std::vector<const RunTrace*> result;
    for (const auto& trace : m_shown.traces)
        result.push_back(trace.get());
    return result;
}

std::vector<RunSummary> RunController::summaries() const {
    std::vector<RunSummary> result;
    for (const auto& trace : m_shown.traces) {
        if (trace->summary())
            result.push_back(*trace->summary());
    }
    return result;
}

std::vector<std::shared_ptr<const EventSpool>> RunController::spools() const {
    return m_shown.spools;
}

const RunConfig& RunController::config() const {
    static const RunConfig kNone;
    return m_shown.experiment.runs.empty() ? kNone : m_shown.experiment.runs.front().config;
}

void RunController::start(const RunConfig& config) {
    start(makeExperiment(config, Comparison::Policy));
}

void RunController::start(const Experiment& experiment) {
    launch(experiment, nullptr, nullptr);
}

void RunController::startAgainst(const Experiment& experiment, std::unique_ptr<RunTrace> baseline,
                                 std::shared_ptr<const EventSpool> baselineEvents) {
    launch(experiment, std::move(baseline), std::move(baselineEvents));
}

void RunController::launch(const Experiment& experiment, std::unique_ptr<RunTrace> baseline,
                           std::shared_ptr<const EventSpool> baselineEvents) {
    const std::vector<RunVariant>& runs = experiment.runs;
    const int firstRun = baseline ? 1 : 0;
    // Checked before anything changes: a bad policy leaves the current run alone.
    RunSet next;
    if (baseline)
        next.traces.push_back(std::move(baseline));
    try {
        // After the baseline's trace, if there is one.
        for (std::size_t i = next.traces.size(); i < runs.size(); ++i)
            next.traces.push_back(viewTraceFor(runs[i]));
    } catch (const InputError& error) {
        emit failed(windowWording(QString::fromUtf8(error.what())));
        return;
    }
    next.experiment = experiment;
    next.spools.resize(runs.size());
    if (firstRun > 0)
        next.spools.front() = std::move(baselineEvents);
    const ModelThread::Hold hold(&m_model, ModelThread::Hold::Mode::Wait);
    if (m_job) {
        m_job->cancel = true;
        m_retired.push_back(std::move(m_job));
    }
    ++m_generation;
    m_running = std::move(next);
    m_runningShown = false;
    m_lastProgress = WorkerProgress{};

    auto job = std::make_unique<Job>();
    job->generation = m_generation;
    job->mailbox.setOnPost([model = &m_model] { model->wake(); });
    Job* raw = job.get();
    const bool keepEvents = m_keepEvents;
    // A run whose time is no measurement lets the window that plots it come first; a real run's
    // time is a result, and keeps its priority.
    const bool timed = std::any_of(experiment.runs.begin(), experiment.runs.end(), timesRealIo);
    job->thread.reset(QThread::create([raw, experiment, firstRun, keepEvents, timed] {
        if (!timed)
            yieldCpuToInteractiveThreads();
        runJob(experiment, firstRun, keepEvents, raw->mailbox, raw->cancel);
        raw->mailbox.markFinished();
        LA_TSAN_RELEASE(raw);
    }));
    job->thread->setObjectName(QStringLiteral("lookahead-run"));
    job->thread->start();
    m_job = std::move(job);
    m_timer.start();
    emit started();
}

void RunController::showLoaded(Experiment experiment, std::vector<std::unique_ptr<RunTrace>> traces) {
    const ModelThread::Hold hold(&m_model, ModelThread::Hold::Mode::Wait);
    if (m_job) {
        m_job->cancel = true;
        m_retired.push_back(std::move(m_job));
        m_timer.start(); // drain() reaps it
    }
    ++m_generation;
    m_running = RunSet{};
    m_runningShown = true;
    RunSet loaded;
    loaded.experiment = std::move(experiment);
    loaded.traces = std::move(traces);
    loaded.spools.resize(loaded.traces.size());
    // The views switch to the loaded traces in tracesChanged(); the old ones go only after that.
    const RunSet old = std::exchange(m_shown, std::move(loaded));
    emit tracesChanged();
    emit finished(false);
}

// The new experiment has produced something to draw: it replaces the one on screen.
void RunController::show() {
    if (m_runningShown)
        return;
    m_runningShown = true;
    m_shown.experiment = m_running.experiment;
    m_shown.noteRuns = m_running.noteRuns;
    m_shown.spools = std::move(m_running.spools);
    // The views switch to the new traces in tracesChanged(); the old ones go only after that.
    const auto old = std::exchange(m_shown.traces, std::move(m_running.traces));
    emit tracesChanged();
}

void RunController::stop() {
    if (m_job) {
        m_job->cancel = true;
        m_job->cancelled = true;
    }
}

void RunController::shutdown() {
    const ModelThread::Hold hold(&m_model, ModelThread::Hold::Mode::Wait);
    if (m_job) {
        m_job->cancel = true;
        m_retired.push_back(std::move(m_job));
    }
    for (auto& job : m_retired) {
        job->cancel = true;
        job->join();
    }
    m_retired.clear();
    m_timer.stop();
    m_retry.stop();
}

void RunController::drain() {
    reapRetired();
    if (!m_job) {
        if (m_retired.empty())
            m_timer.stop();
        return;
    }
    const quint64 generation = m_generation;
    WorkerProgress progress;
    {
        const ModelThread::Hold hold(&m_model);
        if (!hold) {
            m_retry.start();
            return;
        }
        // Before a run's end: its last events were fed before it.
        if (m_fed.exchange(false))
            emit dataArrived();
        std::deque<WorkerMessage> messages =
            m_job->mailbox.take(progress, std::numeric_limits<std::size_t>::max(), Mailbox::Take::Others);
        for (WorkerMessage& message : messages) {
            handle(message);
            // A slot may have started another run: what is left belongs to the old one.
            if (generation != m_generation)
                return;
        }
        // The new experiment's first events wait for its traces to be shown before they are fed.
        if (m_job && !m_runningShown && m_job->mailbox.front() == Mailbox::Front::Events)
            show();
    }
    if (generation != m_generation || !m_job)
        return;
    m_model.wake();
    const int runs = static_cast<int>(m_running.experiment.runs.size());
    if (!progress.stage.empty())
        emit preparing(QString::fromStdString(progress.stage), progress.stageDone, progress.stageTotal);
    else if (progress.run >= 0 &&
             (progress.done != m_lastProgress.done || progress.run != m_lastProgress.run))
        emit progressChanged(progress.run, runs, progress.done, progress.total);
    m_lastProgress = progress;
}

bool RunController::feed(ModelThread::Clock::time_point deadline) {
    if (!m_job || !m_runningShown)
        return false;
    Mailbox& mailbox = m_job->mailbox;
    do {
        WorkerProgress progress;
        std::deque<WorkerMessage> messages = mailbox.take(progress, kFeedEvents, Mailbox::Take::Events);
        if (messages.empty())
            return false;
        for (WorkerMessage& message : messages) {
            const auto run = static_cast<std::size_t>(message.run);
            if (run < m_shown.traces.size())
                m_shown.traces[run]->append(message.events);
            mailbox.recycle(std::move(message.events));
        }
        m_fed = true;
    } while (ModelThread::Clock::now() < deadline);
    return mailbox.front() == Mailbox::Front::Events;
}

void RunController::handle(WorkerMessage& message) {
    const auto run = static_cast<std::size_t>(message.run);
    switch (message.kind) {
    case WorkerMessage::Kind::RunStarted:
        restartTrace(run);
        if (message.repeat >= 0)
            emit repeatStarted(message.run, message.repeat, message.repeats);
        else
            emit runStarted(message.run, static_cast<int>(m_running.experiment.runs.size()));
        break;
    case WorkerMessage::Kind::Events: // fed to the traces on the model thread (feed())
        break;
    case WorkerMessage::Kind::RunFinished:
        show();
        if (run < m_shown.traces.size()) {
            m_shown.traces[run]->setSummary(message.summary);
            m_shown.spools[run] = std::move(message.spool);
            // Nothing is lost (the columns stayed in memory), but the memory is no longer bounded.
            if (const std::string problem = m_shown.traces[run]->storageProblem(); !problem.empty())
                emit notice(QString::fromStdString(m_shown.traces[run]->label() + ": " + problem));
            emit runFinished(message.run);
        }
        break;
    case WorkerMessage::Kind::Notice:
        // Kept with the experiment (its notes list, a saved session), as the command line's runner keeps it.
        for (RunSet* set : {&m_running, m_runningShown ? &m_shown : nullptr})
            if (set) {
                set->experiment.notes.push_back(message.text);
                set->noteRuns.resize(set->experiment.notes.size() - 1, -1);
                set->noteRuns.push_back(message.run);
            }
        emit notice(windowWording(QString::fromStdString(message.text)));
        break;
    case WorkerMessage::Kind::Error: {
        QString text = windowWording(QString::fromStdString(message.text));
        // A later run failing to start leaves the earlier ones on screen: say which one did not run.
        if (message.run > 0 && run < m_running.experiment.runs.size())
            text = tr("%1 did not run: %2")
                       .arg(QString::fromStdString(m_running.experiment.runs[run].label), text);
        emit failed(text);
        break;
    }
    case WorkerMessage::Kind::Done:
        finishJob();
        break;
    }
}

// A repeated run's next repeat, or its median repeat handed on, replaces the repeat on screen: the
// views draw one repeat at a time (docs/repeats.md).
void RunController::restartTrace(std::size_t run) {
    RunSet& set = m_runningShown ? m_shown : m_running;
    if (run >= set.traces.size() || set.traces[run]->positions() == 0)
        return;
    std::unique_ptr<RunTrace> fresh;
    try {
        fresh = viewTraceFor(set.experiment.runs[run]);
    } catch (const InputError&) {
        return; // it was made once at the start: the repeat on screen then stays
    }
    // The views switch in tracesChanged(); the old trace goes only after that.
    const auto old = std::exchange(set.traces[run], std::move(fresh));
    if (m_runningShown)
        emit tracesChanged();
}

void RunController::finishJob() {
    std::unique_ptr<Job> job = std::move(m_job);
    job->join();
    if (m_retired.empty())
        m_timer.stop();
    if (m_runningShown)
        dropRunsThatDidNotRun();
    emit finished(job->cancelled);
}

// A run stopped or failed: the runs after it never ran. They leave the screen, so that nothing is
// shown as going once the worker is gone and what did run can be saved and exported.
void RunController::dropRunsThatDidNotRun() {
    std::size_t ran = 0;
    while (ran < m_shown.traces.size() && m_shown.traces[ran]->summary())
        ++ran;
    if (ran == m_shown.traces.size())
        return;
    std::vector<std::unique_ptr<RunTrace>> kept;
    for (std::size_t i = 0; i < ran; ++i)
        kept.push_back(std::move(m_shown.traces[i]));
    std::vector<RunVariant>& runs = m_shown.experiment.runs;
    runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(std::min(ran, runs.size())), runs.end());
    m_shown.spools.resize(ran);
    if (runs.size() < 2)
        m_shown.experiment.comparison = Comparison::None;
    // The views switch to the runs kept in tracesChanged(); the others go only after that.
    const auto old = std::exchange(m_shown.traces, std::move(kept));
    emit tracesChanged();
}

void RunController::reapRetired() {
    for (auto it = m_retired.begin(); it != m_retired.end();) {
        if ((*it)->mailbox.finished()) {
            (*it)->join();
            it = m_retired.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace la

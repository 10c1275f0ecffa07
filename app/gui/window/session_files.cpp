// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/session_files.h"

#include "dashboard.h"
#include "experiment/session_io.h"
#include "gui/jobs/run_controller.h"
#include "gui/window/output_conflict.h"
#include "gui/window/run_setup_panel.h"
#include "gui/window/window_dialogs.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace la {

namespace {

// Whether a saved model of a trace visited the scan the panel had set up (an index scan, a block
// list, a pattern) with the trace's cache state, rather than the blocks the trace read.
bool modelVisitsFromScan(const RunSummary& model) {
    return !model.cacheFromTrace.empty();
}

} // namespace

SessionFiles::SessionFiles(RunController& controller, RunSetupPanel* panel, Dashboard* dashboard,
                           WindowDialogs& dialogs, QObject* parent)
    : QObject(parent), m_controller(controller), m_panel(panel), m_dashboard(dashboard), m_dialogs(dialogs) {
    // New runs on screen did not come from a session; open() sets it again once its runs are shown.
    connect(&m_controller, &RunController::tracesChanged, this, [this] { m_openedSession.clear(); });
}

void SessionFiles::addFileActions(QMenu* file) {
    file->addAction(tr("&Open session…"), QKeySequence::Open, this, [this] {
        m_dialogs.chooseFile(tr("Open a saved session"), tr("Lookahead sessions (*.lookahead);;Any file (*)"),
                             false, [this](const QString& path) { open(path); });
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    fillRecentMenu();
    file->addAction(tr("&Save run…"), QKeySequence::Save, this, [this] {
        m_dialogs.chooseFile(tr("Save the runs on screen"), tr("Lookahead sessions (*.lookahead)"), true,
                             [this](const QString& chosen) {
                                 const QString path = QFileInfo(chosen).suffix().isEmpty()
                                                          ? chosen + QStringLiteral(".lookahead")
                                                          : chosen;
                                 if (const QString error = save(path); !error.isEmpty())
                                     m_dialogs.showError(tr("Save failed"), error);
                             });
    });
}

void SessionFiles::addRunActions(QMenu* run) {
    run->addAction(tr("Run B against this &baseline"), this, [this] {
        if (const QString error = runAgainstBaseline(); !error.isEmpty())
            m_dialogs.showError(tr("Cannot run against the baseline"), error);
    });
}

QString SessionFiles::save(const QString& path) {
    if (m_job)
        return tr("A session is being saved or opened already (%1).").arg(m_job->path());
    if (!m_openedSession.isEmpty() && !m_controller.traces().empty())
        return tr("These runs were opened from %1; they are saved there already.").arg(m_openedSession);
    const RunsToWrite onScreen = runsToWrite(m_controller, tr("save"), tr("saved"));
    if (!onScreen.error.isEmpty())
        return onScreen.error;
    if (const QString conflict = outputConflict(m_controller, path); !conflict.isEmpty())
        return conflict;
    Experiment experiment = m_controller.experiment();
    const std::vector<RunSummary> summaries = m_controller.summaries();
    experiment.provenance = experimentProvenance(experiment, summaries, "lookahead (window)");
    auto* job = SessionJob::save(path, std::move(experiment), summaries, onScreen.spools, this);
    m_job = job;
    QProgressDialog* progress =
        m_dialogs.jobProgress(job, tr("Save run"), tr("Saving the runs on screen to %1…").arg(path));
    connect(job, &SessionJob::finished, this, [this, job, progress, path](const QString& error) {
        progress->close();
        job->deleteLater();
        if (error.isEmpty()) {
            remember(path);
            m_dialogs.showStatus(tr("Saved %1").arg(path), 10000);
        } else {
            m_dialogs.showError(tr("Save failed"), error);
        }
        emit saved(path, error);
    });
    job->start();
    return {};
}

void SessionFiles::open(const QString& path) {
    if (m_job) {
        m_dialogs.showError(tr("Cannot open the session"),
                            tr("A session is being saved or opened already (%1).").arg(m_job->path()));
        emit opened(path, tr("busy"));
        return;
    }
    auto* job = SessionJob::open(path, this);
    m_job = job;
    QProgressDialog* progress = m_dialogs.jobProgress(job, tr("Open session"), tr("Reading %1…").arg(path));
    connect(job, &SessionJob::finished, this, [this, job, progress, path](const QString& error) {
        progress->close();
        job->deleteLater();
        if (!error.isEmpty()) {
            m_dialogs.showError(tr("Cannot open the session"), error);
            emit opened(path, error);
            return;
        }
        Experiment experiment = job->opened().experiment;
        m_keptDir = job->takeKeptDir();
        restorePanel(experiment, job->opened().summaries);
        emit aboutToShow();
        m_controller.showLoaded(std::move(experiment), std::move(job->traces()));
        m_openedSession = path;
        remember(path);
        // A one-run session has no verdict: the status then names the file alone.
        const QString verdict = m_dashboard->verdict();
        if (!job->keptError().isEmpty())
            m_dialogs.showStatus(tr("Opened %1, but the files its runs read cannot be kept for a new run: %2")
                                     .arg(path, job->keptError()),
                                 30000);
        else
            m_dialogs.showStatus(verdict.isEmpty() ? tr("Opened %1").arg(path)
                                                   : tr("Opened %1 — %2").arg(path, verdict),
                                 15000);
        emit opened(path, {});
    });
    job->start();
}

// The panel takes A's settings, so that a new run (B against this baseline) runs alike; an observed
// run A brings back its trace, the relation read and what the model visited.
void SessionFiles::restorePanel(const Experiment& experiment, const std::vector<RunSummary>& summaries) {
    const RunVariant& a = experiment.runs.front();
    emit traceOpened(a.observed, QString::fromStdString(a.tracePath));
    if (a.observed && summaries.size() > 1)
        m_panel->setVisitsFromScan(modelVisitsFromScan(summaries[1]));
    m_panel->setExplainPath(QString::fromStdString(a.explainPath));
    m_panel->setBackendPid(a.observed ? a.observed->backend.value_or(0) : 0);
    // A dataset file since moved or deleted is not there to run again; the runs still show.
    if (const QString panelError = m_panel->setConfig(a.config); panelError.isEmpty())
        m_panel->setComparison(experiment.comparison == Comparison::None && a.observed
                                   ? Comparison::Observed
                                   : experiment.comparison);
    else
        m_dialogs.showStatus(tr("Cannot run these settings again: %1").arg(statusLine(panelError)), 30000);
    emit panelRestored();
}

QString SessionFiles::runAgainstBaseline() {
    if (m_openedSession.isEmpty())
        return tr("Open a saved session first (File → Open session): its run A is the baseline.");
    if (m_job)
        return tr("A session is being saved or opened already (%1).").arg(m_job->path());
    if (const QString error = m_panel->configError(); !error.isEmpty())
        return error;
    // B as the panel says (it holds the baseline's settings unless changed), A as it was saved.
    Experiment experiment =
        m_panelExperiment ? m_panelExperiment() : makeExperiment(m_panel->config(), m_panel->comparison());
    if (experiment.runs.size() < 2)
        return tr("Say what B changes (Compare in the run setup panel), then run B against the baseline.");
    auto* job = SessionJob::open(m_openedSession, this, true);
    m_job = job;
    QProgressDialog* progress =
        m_dialogs.jobProgress(job, tr("Run B against this baseline"), tr("Reading %1…").arg(m_openedSession));
    connect(
        job, &SessionJob::finished, this, [this, job, progress, experiment](const QString& error) mutable {
            progress->close();
            job->deleteLater();
            if (!error.isEmpty()) {
                m_dialogs.showError(tr("Cannot run against the baseline"), error);
                return;
            }
            const RunVariant& saved = job->opened().experiment.runs.front();
            // A model of a trace against a run that is not that trace, or the other way round, is no A/B.
            if ((saved.observed != nullptr) != (experiment.comparison == Comparison::Observed)) {
                m_dialogs.showError(
                    tr("Cannot run against the baseline"),
                    saved.observed
                        ? tr("Run A of this session is an imported trace: choose Compare \"B: model this "
                             "trace with policy B\" to model it again.")
                        : tr("Run A of this session is not an imported trace: close the imported trace to "
                             "run B against it."));
                return;
            }
            experiment.runs.front() = saved;
            // The saved A names the files this open kept: they must outlive it, for a save of the pair.
            m_baselineKeptDir = job->takeKeptDir();
            emit aboutToRun();
            m_controller.startAgainst(experiment, std::move(job->traces().front()), job->spools().front());
        });
    job->start();
    return {};
}

void SessionFiles::remember(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("session/recent")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > 8)
        recent.removeLast();
    settings.setValue(QStringLiteral("session/recent"), recent);
    fillRecentMenu();
}

void SessionFiles::fillRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("session/recent")).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] { open(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/jobs/session_job.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTemporaryDir>

#include <functional>
#include <memory>

class QMenu;

namespace la {

class Dashboard;
class RunController;
class RunSetupPanel;
class WindowDialogs;

// The window's sessions (docs/session-format.md): File → Open session, Open recent (the last eight,
// kept in QSettings) and Save run, `lookahead FILE.lookahead`, and Run → Run B against this baseline.
// Saving and opening run in the background (SessionJob) with a progress dialog; a session that
// cannot be read (damaged, not a session) ends in an error dialog and leaves the runs on screen.
class SessionFiles : public QObject {
    Q_OBJECT
public:
    SessionFiles(RunController& controller, RunSetupPanel* panel, Dashboard* dashboard,
                 WindowDialogs& dialogs, QObject* parent);

    // Open session…, Open recent, Save run… / Run B against this baseline.
    void addFileActions(QMenu* file);
    void addRunActions(QMenu* run);
    // The experiment the run setup panel describes (with the imported trace, if it is modelled):
    // Run B against this baseline takes its B.
    void setPanelExperiment(std::function<Experiment()> panelExperiment) {
        m_panelExperiment = std::move(panelExperiment);
    }

    // Saves the runs on screen as a session in the background with a progress dialog; saved()
    // follows. Returns why it cannot start, empty if it started.
    QString save(const QString& path);
    // Opens a session in the background and shows its runs as a finished run; opened() follows.
    void open(const QString& path);
    // The session on screen's run A as saved, beside a new live run B with the panel's settings (the
    // baseline's, unless changed), on the same axes. Returns why it cannot start, empty if it started.
    QString runAgainstBaseline();

signals:
    // A save or open has ended; `error` is empty on success.
    void saved(const QString& path, const QString& error);
    void opened(const QString& path, const QString& error);
    // A session read is about to be shown as a finished run (what the last run said no longer holds).
    void aboutToShow();
    // Run B against the baseline is about to start, as a run from the panel does.
    void aboutToRun();
    // A session whose run A is an imported trace was opened: the panel models that trace again.
    void traceOpened(std::shared_ptr<const ObservedTrace> trace, const QString& path);
    // The panel shows the settings of an opened session's run A.
    void panelRestored();

private:
    void restorePanel(const Experiment& experiment, const std::vector<RunSummary>& summaries);
    void remember(const QString& path);
    void fillRecentMenu();

    RunController& m_controller;
    RunSetupPanel* m_panel;
    Dashboard* m_dashboard;
    WindowDialogs& m_dialogs;
    QPointer<SessionJob> m_job;
    QMenu* m_recentMenu = nullptr;
    QString m_openedSession; // the session the runs on screen came from, if they did
    std::function<Experiment()> m_panelExperiment;
    // Where the files an opened session's runs read are while they may run again (session_job.h).
    std::unique_ptr<QTemporaryDir> m_keptDir;
    // The same for the saved A of the last Run B against this baseline, which opens the session again.
    std::unique_ptr<QTemporaryDir> m_baselineKeptDir;
};

} // namespace la

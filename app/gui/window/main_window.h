// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "gui/jobs/run_controller.h"
#include "gui/window/input_openers.h"
#include "gui/window/screen_exports.h"
#include "gui/window/session_files.h"
#include "gui/window/window_dialogs.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QMainWindow>

#include <cstddef>
#include <limits>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;

namespace la {

class Dashboard;
class PlanPanel;
class Recordings;
class RunSetupPanel;
class SweepWindow;

// The window: run setup on the left, the dashboard in the middle, progress in the panel and the
// status bar. Runs go through the RunController; sessions, exports and the inputs the user opens
// are the jobs of classes of their own. Every problem with the user's input ends in a non-blocking
// error dialog and leaves the window usable.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Preconfigures from the command line (if it names any run option) or from the saved settings,
    // and starts at once with --run.
    void applyStartup(const CliOptions& options);

    void startRun();
    void stopRun();
    // The Sweep view, created on first use (Run → Sweep…, or --sweep SPEC).
    SweepWindow* sweepWindow();
    // How Run → Sweep this run names the run in the Sweep view: the recording's modelled node, the
    // block list or the dataset.
    QString sweptRunTitle() const;
    // A sweep's cell in the main views: `config` names its policy (A) and its baseline (B).
    void runSweepCell(const RunConfig& config);

    RunController& controller() { return m_controller; }
    Dashboard* dashboard() const { return m_dashboard; }
    RunSetupPanel* setupPanel() const { return m_panel; }
    SessionFiles* sessions() const { return m_sessions; }
    ScreenExports* exports() const { return m_exports; }
    InputOpeners* inputs() const { return m_inputs; }
    Recordings* recordings() const { return m_recordings; }
    // The recorded plan's tree, in a dock beside the plots that shows while the runs have a plan.
    PlanPanel* planPanel() const { return m_plan; }
    // The error dialog on screen, if any (tests check it without blocking).
    QMessageBox* errorDialog() const { return m_dialogs.errorDialog(); }
    QString caption() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QString setStartupConfig(const CliOptions& options);
    void buildDock();
    void buildPlanDock();
    // The plan of the runs on screen, if they have one, with the figures of those that finished.
    void showPlan();
    void buildActions();
    void buildMenus();
    void buildToolBar();
    void showAbout();
    void connectController();
    void watchSettings();
    // The experiment the panel's settings describe (beside the imported trace, if it is compared).
    Experiment panelExperiment() const;
    void updateStale();
    // The trace group's line on the recording shown, if it is one.
    void showRecorded(const QJsonObject& recorded);
    // The notes of `experiment` (the recording's, then its own) under the verdict, each once, and
    // their count in the status bar; `noteRuns` says which run said each of its own notes (a note
    // said by some runs only names them); `summaries` add the reconciliation of figures that agree,
    // as a first note.
    void showNotes(const Experiment& experiment, const std::vector<int>& noteRuns,
                   const std::vector<RunSummary>& summaries = {});
    void refreshCacheView();
    // Whether the running experiment's runs all do real I/O: they then take turns on the device.
    bool runsTakeTurnsOnDevice() const;
    void onStarted();
    void onTracesChanged();
    void onFailed(const QString& message);
    void onProgress(int run, int runs, quint64 done, quint64 total);
    void onFinished(bool cancelled);
    void showFinishedStatus();
    void saveSettings() const;
    void restoreSettings();

    RunController m_controller;
    WindowDialogs m_dialogs{this};
    Dashboard* m_dashboard;
    RunSetupPanel* m_panel;
    SessionFiles* m_sessions;
    ScreenExports* m_exports;
    InputOpeners* m_inputs;
    Recordings* m_recordings;
    PlanPanel* m_plan = nullptr;
    QDockWidget* m_setupDock = nullptr;
    QDockWidget* m_planDock = nullptr;
    QJsonObject m_planRecorded;                 // the recording whose plan the panel shows
    std::optional<std::int64_t> m_nodeToChoose; // --node, until the opened session's plan is shown
    QAction* m_setupToggle = nullptr;
    QAction* m_planToggle = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_timeAxis = nullptr;
    QAction* m_positionAxis = nullptr;
    QAction* m_resetZoom = nullptr;
    QLabel* m_notesCount = nullptr; // in the status bar
    QElapsedTimer m_runClock;
    int m_clockRun = -1;
    // The repeat going (docs/repeats.md): its place among all repeats of the experiment, -1 for none.
    int m_repeatStep = -1;
    int m_repeatSteps = 0;
    QString m_repeatText;
    // The first run that has not started yet: its panes say it waits (the runs take turns).
    std::size_t m_firstWaiting = std::numeric_limits<std::size_t>::max();
    SweepWindow* m_sweepWindow = nullptr;
    bool m_startShown = false; // the running experiment has replaced the one on screen
    QString m_failure;         // why the running experiment failed, if it did
    QString m_finishedStatus;  // how the last run ended, with its verdict, whole
    QString m_shownStatus;     // the same as the status bar shows it
};

} // namespace la

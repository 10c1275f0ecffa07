// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "gui/event_csv_export.h"
#include "gui/export_dialog.h"
#include "gui/observed_import_job.h"
#include "gui/run_controller.h"
#include "gui/session_job.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>

#include <functional>

class QAction;
class QMenu;
class QThread;
class QMessageBox;

namespace la {

class SweepWindow;

class Dashboard;
class RunSetupPanel;

// The window: run setup on the left, the dashboard in the middle, progress in the panel and the
// status bar. Runs go through the RunController; every problem with the user's input ends in a
// non-blocking error dialog and leaves the window usable.
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
    // Renders and writes the plots on screen as PNG, SVG or PDF; returns an error message, empty on success.
    [[nodiscard]] QString exportPlots(const PlotExportRequest& request);
    // Why `path` must not be written (it is one of the run's inputs), empty if it may.
    [[nodiscard]] QString outputConflict(const QString& path) const;
    [[nodiscard]] QString exportSummaryJson(const QString& path);
    // Writes every event of the runs on screen to `path`, in the background with a progress dialog;
    // traceCsvFinished() follows. Returns why it cannot start, empty if it started.
    QString exportTraceCsv(const QString& path);
    // Scan this file (real I/O) / this block list (checked at once; a bad one gets an error dialog).
    void openFile(const QString& path);
    void openBlockList(const QString& path);
    // Imports a strace / perf trace / trace CSV in the background (progress, cancel); `relation` as
    // --trace-relation (empty: the file read most). traceImported() follows.
    void importTraceFile(const QString& path, const QString& relation = {});
    void closeTrace();
    // Checks the index scan `config` names on a worker thread (the index is parsed) and sets it;
    // pgScanChecked() follows.
    void openPgScan(const RunConfig& config);
    // The Sweep view, created on first use (Run → Sweep…, or --sweep SPEC).
    SweepWindow* sweepWindow();
    // A sweep's cell in the main views: `config` names its policy (A) and its baseline (B).
    void runSweepCell(const RunConfig& config);
    const ObservedTrace* importedTrace() const { return m_trace.get(); }
    // Saves the runs on screen as a session (docs/session-format.md) in the background with a
    // progress dialog; sessionSaved() follows. Returns why it cannot start, empty if it started.
    QString saveSessionFile(const QString& path);
    // Opens a session in the background and shows its runs as a finished run; sessionOpened() follows.
    void openSessionFile(const QString& path);
    // The session on screen's run A as saved, beside a new live run B with the panel's settings (the
    // baseline's, unless changed), on the same axes. Returns why it cannot start, empty if it started.
    QString runAgainstBaseline();

    RunController& controller() { return m_controller; }
    Dashboard* dashboard() const { return m_dashboard; }
    RunSetupPanel* setupPanel() const { return m_panel; }
    // The error dialog on screen, if any (tests check it without blocking).
    QMessageBox* errorDialog() const;
    QString caption() const;

signals:
    // An import has ended; `error` is empty if the trace is now set.
    void traceImported(const QString& error);
    // An index scan was checked; `error` is empty if the panel now scans it.
    void pgScanChecked(const QString& error);
    // An export of the trace CSV has ended; `error` is empty if `path` was written.
    void traceCsvFinished(const QString& path, const QString& error);
    // A session save or open has ended; `error` is empty on success.
    void sessionSaved(const QString& path, const QString& error);
    void sessionOpened(const QString& path, const QString& error);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildActions();
    void buildMenus();
    void connectController();
    void showError(const QString& title, const QString& text);
    void watchSettings();
    void updateStale();
    void refreshCacheView();
    void onStarted();
    void onTracesChanged();
    void onFailed(const QString& message);
    void onProgress(int run, int runs, quint64 done, quint64 total);
    void onFinished(bool cancelled);
    void openExportDialog(int plotIndex);
    void chooseFile(const QString& title, const QString& filter, bool save,
                    const std::function<void(const QString&)>& then);
    void saveJson(const QString& path);
    void saveSettings() const;
    void rememberSession(const QString& path);
    void fillRecentMenu();
    void restoreSettings();

    RunController m_controller;
    Dashboard* m_dashboard;
    RunSetupPanel* m_panel;
    QAction* m_setupToggle = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_timeAxis = nullptr;
    QAction* m_positionAxis = nullptr;
    QPointer<QMessageBox> m_errorDialog;
    QElapsedTimer m_runClock;
    int m_clockRun = -1;
    PlotExportRequest m_lastExport;
    QPointer<TraceExport> m_traceExport;
    QPointer<TraceImportJob> m_traceImport;
    SweepWindow* m_sweepWindow = nullptr;
    QPointer<SessionJob> m_sessionJob;
    QMenu* m_recentMenu = nullptr;
    QString m_openedSession;                      // the session the runs on screen came from, if they did
    QThread* m_pgCheck = nullptr;                 // reading an index the user chose, if any
    std::shared_ptr<const ObservedTrace> m_trace; // the imported trace the panel models, if any
    QString m_tracePath;
    bool m_startShown = false; // the running experiment has replaced the one on screen
    QString m_failure;         // why the running experiment failed, if it did
};

} // namespace la

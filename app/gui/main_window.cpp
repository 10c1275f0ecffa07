// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/main_window.h"
#include "experiment/verdict.h"

#include "dashboard.h"
#include "experiment/session_io.h"
#include "experiment/summary_json.h"
#include "gui/dataset_cache_view.h"
#include "gui/dataset_picker.h"
#include "gui/pg_index_dialog.h"
#include "gui/run_setup_panel.h"
#include "gui/settings_store.h"
#include "gui/sweep_window.h"
#include "input_error.h"
#include "io/output_guard.h"
#include "io/scan_file.h"
#include "io/scan_target.h"
#include "message_text.h"
#include "plot_view.h"
#include "render/plot_file.h"
#include "render/png_export.h"
#include "run_options.h"
#include "tooltips.h"

#include <QActionGroup>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QThread>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <cstdio>

namespace la {

namespace {

// Checks the files `config` names, as the Open dialogs do; clears each unusable one and returns why.
QString dropUnusableFiles(RunConfig& config) {
    QStringList problems;
    if (!config.file.empty()) {
        try {
            inspectScanFile(config.file);
        } catch (const InputError& error) {
            problems << QString::fromUtf8(error.what());
            config.file.clear();
        }
    }
    if (!config.blockList.empty()) {
        try {
            loadBlockList(config.blockList, Direction::Forward);
        } catch (const InputError& error) {
            problems << QString::fromUtf8(error.what());
            config.blockList.clear();
        }
    }
    return problems.join(QStringLiteral("\n\n"));
}

// What makes two experiments run alike: each run's label, policy and every option.
std::string experimentKey(const Experiment& experiment) {
    std::string key = comparisonName(experiment.comparison);
    if (!experiment.runs.empty() && experiment.runs.front().observed)
        key += experiment.runs.front().tracePath + experiment.runs.front().observed->relation;
    for (const RunVariant& run : experiment.runs) {
        key += '|';
        key += run.label;
        key += ' ';
        key += run.policy;
        key += ' ';
        key += runOptionsText(run.config);
    }
    return key;
}

// A progress dialog with Cancel for a background job (TraceExport, TraceImportJob): it shows after
// half a second and stays until the caller closes it when the job has finished.
template <typename Job>
QProgressDialog* jobProgress(QWidget* parent, Job* job, const QString& title, const QString& label) {
    auto* progress = new QProgressDialog(label, QObject::tr("Cancel"), 0, 1000, parent);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setWindowTitle(title);
    progress->setMinimumDuration(500);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    QObject::connect(progress, &QProgressDialog::canceled, job, &Job::cancel);
    QObject::connect(job, &Job::progressChanged, progress, [progress](double fraction) {
        progress->setValue(static_cast<int>(fraction * 1000.0));
    });
    return progress;
}

// A message fit for the one-line status bar: its first line, cut short.
QString statusLine(const QString& message) {
    const QString line = message.section(QLatin1Char('\n'), 0, 0);
    return line.size() > 140 ? line.left(139) + QStringLiteral("…") : line;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_dashboard(new Dashboard(this)), m_panel(new RunSetupPanel) {
    setWindowTitle(QStringLiteral("Lookahead"));
    setWindowIcon(QIcon(QStringLiteral(":/lookahead/icon.png")));
    setCentralWidget(m_dashboard);
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(m_panel->sizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    auto* dock = new QDockWidget(tr("Run setup"), this);
    dock->setObjectName(QStringLiteral("runSetup"));
    // Closable, with a toggle in the View menu and the toolbar: on a small screen the plots get the width.
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    dock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    m_setupToggle = dock->toggleViewAction();
    m_setupToggle->setText(tr("Run &setup"));
    m_setupToggle->setToolTip(tr("Show or hide the run setup panel"));
    m_setupToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    buildActions();
    buildMenus();
    connectController();
    connect(m_panel, &RunSetupPanel::runRequested, this, &MainWindow::startRun);
    connect(m_panel, &RunSetupPanel::stopRequested, this, &MainWindow::stopRun);
    connect(m_panel, &RunSetupPanel::relationChosen, this,
            [this](const QString& relation) { importTraceFile(m_tracePath, relation); });
    connect(m_panel, &RunSetupPanel::closeTraceRequested, this, &MainWindow::closeTrace);
    connect(m_panel, &RunSetupPanel::closePgScanRequested, this, [this] {
        RunConfig config = m_panel->config();
        config.pg = {};
        (void)m_panel->setConfig(config);
        m_panel->setPgScan({});
        updateStale();
    });
    connect(m_panel->datasetPicker(), &DatasetPicker::openFileRequested, this, [this] {
        chooseFile(tr("Open a file to scan"), tr("Any file (*)"), false,
                   [this](const QString& path) { openFile(path); });
    });
    connect(m_panel->datasetPicker(), &DatasetPicker::openBlockListRequested, this, [this] {
        chooseFile(tr("Open a block list"), tr("Block lists (*.txt *.csv);;Any file (*)"), false,
                   [this](const QString& path) { openBlockList(path); });
    });
    connect(m_dashboard, &Dashboard::exportPlotRequested, this, &MainWindow::openExportDialog);
    connect(m_dashboard, &Dashboard::exportAllRequested, this, [this] { openExportDialog(-1); });
    watchSettings();
    // A first window fits the screen it opens on (a 1400×900 screen cut off the side column).
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1500, 950);
    resize(QSize(1500, 950).boundedTo(available));
    restoreSettings();
    if (const QString error = m_panel->setConfig(firstLaunchConfig()); !error.isEmpty())
        showError(tr("Cannot use the default dataset"), error);
    statusBar()->showMessage(tr("Ready: press Run (Ctrl+R)"));
}

MainWindow::~MainWindow() {
    m_controller.shutdown();
    if (m_pgCheck) {
        m_pgCheck->wait();
        delete m_pgCheck;
    }
}

void MainWindow::buildActions() {
    m_runAction = new QAction(tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_stopAction = new QAction(tr("&Stop"), this);
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopAction->setEnabled(false);
    m_exportAction = new QAction(tr("&Export plots (PNG, SVG, PDF)…"), this);
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_timeAxis = new QAction(tr("&Time axis"), this);
    m_positionAxis = new QAction(tr("&Position axis"), this);
    auto* axes = new QActionGroup(this);
    for (QAction* axis : {m_timeAxis, m_positionAxis}) {
        axis->setCheckable(true);
        axes->addAction(axis);
    }
    m_timeAxis->setChecked(true);
    m_timeAxis->setToolTip(tr("x axis: time since the run started"));
    m_positionAxis->setToolTip(tr("x axis: buffers handed to the consumer"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::startRun);
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopRun);
    connect(m_exportAction, &QAction::triggered, this, [this] { openExportDialog(m_lastExport.plotIndex); });
    connect(m_timeAxis, &QAction::triggered, this, [this] { m_dashboard->setXMode(XAxis::Time); });
    connect(m_positionAxis, &QAction::triggered, this, [this] { m_dashboard->setXMode(XAxis::Position); });
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session…"), QKeySequence::Open, this, [this] {
        chooseFile(tr("Open a saved session"), tr("Lookahead sessions (*.lookahead);;Any file (*)"), false,
                   [this](const QString& path) { openSessionFile(path); });
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    fillRecentMenu();
    file->addAction(tr("&Save run…"), QKeySequence::Save, this, [this] {
        chooseFile(tr("Save the runs on screen"), tr("Lookahead sessions (*.lookahead)"), true,
                   [this](const QString& chosen) {
                       const QString path = QFileInfo(chosen).suffix().isEmpty()
                                                ? chosen + QStringLiteral(".lookahead")
                                                : chosen;
                       if (const QString error = saveSessionFile(path); !error.isEmpty())
                           showError(tr("Save failed"), error);
                   });
    });
    file->addSeparator();
    file->addAction(tr("Open &file to scan…"), m_panel->datasetPicker(), &DatasetPicker::openFileRequested);
    file->addAction(tr("Open &block list…"), m_panel->datasetPicker(),
                    &DatasetPicker::openBlockListRequested);
    QAction* import = file->addAction(tr("&Import trace (strace, perf trace, CSV)…"), this, [this] {
        chooseFile(tr("Import a trace of PostgreSQL's reads"),
                   tr("Traces (*.strace *.trace *.txt *.log *.csv);;Any file (*)"), false,
                   [this](const QString& path) { importTraceFile(path); });
    });
    import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    file->addAction(tr("Open &PostgreSQL index…"), this, [this] {
        auto* dialog = new PgIndexDialog(m_panel->config(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &PgIndexDialog::chosen, this, &MainWindow::openPgScan);
        dialog->open();
    });
    import->setToolTip(
        tr("strace -f -ttt -T -yy -e trace=pread64,preadv,preadv2 -p PID, or perf trace -e pread64"));
    file->addSeparator();
    file->addAction(m_exportAction);
    file->addAction(tr("Export &CSV trace…"), this, [this] {
        chooseFile(tr("Export CSV trace"), tr("CSV files (*.csv)"), true, [this](const QString& path) {
            if (const QString error = exportTraceCsv(path); !error.isEmpty())
                showError(tr("Export failed"), error);
        });
    });
    file->addAction(tr("Export &JSON summary…"), this, [this] {
        chooseFile(tr("Export JSON summary"), tr("JSON files (*.json)"), true,
                   [this](const QString& path) { saveJson(path); });
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_stopAction);
    run->addAction(tr("Run B against this &baseline"), this, [this] {
        if (const QString error = runAgainstBaseline(); !error.isEmpty())
            showError(tr("Cannot run against the baseline"), error);
    });
    run->addSeparator();
    run->addAction(tr("S&weep (collapse map, grids of runs)…"), this, [this] {
        sweepWindow()->show();
        sweepWindow()->raise();
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_setupToggle);
    view->addSeparator();
    view->addAction(m_timeAxis);
    view->addAction(m_positionAxis);
    view->addSeparator();
    QAction* reset = view->addAction(tr("&Reset zoom"), m_dashboard, &Dashboard::resetZoom);
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Lookahead"), this, [this] {
        auto* box = new QMessageBox(
            QMessageBox::Information, tr("About Lookahead"),
            tr("<b>Lookahead %1</b><p>Watch PostgreSQL's read stream think: read-ahead distance, "
               "hits and misses, I/O sizes and combined requests, live.</p>"
               "<p>GPL-3.0-or-later. Plots drawn with QCustomPlot.</p>")
                .arg(QStringLiteral(LOOKAHEAD_VERSION)),
            QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });

    QToolBar* tools = addToolBar(tr("Run"));
    tools->setObjectName(QStringLiteral("runToolBar"));
    tools->setMovable(false);
    tools->addAction(m_setupToggle);
    tools->addSeparator();
    tools->addAction(m_runAction);
    tools->addAction(m_stopAction);
    tools->addSeparator();
    tools->addAction(m_timeAxis);
    tools->addAction(m_positionAxis);
    tools->addAction(reset);
    tools->addSeparator();
    tools->addAction(m_exportAction);
}

void MainWindow::connectController() {
    RunController* c = &m_controller;
    connect(c, &RunController::started, this, &MainWindow::onStarted);
    connect(c, &RunController::tracesChanged, this, &MainWindow::onTracesChanged);
    connect(c, &RunController::runStarted, this, [this](int run, int runs) {
        m_runClock.restart();
        m_clockRun = run;
        m_panel->showProgress(tr("Run %1/%2 starting…").arg(run + 1).arg(runs),
                              static_cast<double>(run) / runs);
    });
    connect(c, &RunController::dataArrived, m_dashboard, &Dashboard::dataChanged);
    connect(c, &RunController::progressChanged, this, &MainWindow::onProgress);
    connect(c, &RunController::preparing, this, [this](const QString& stage, quint64 done, quint64 total) {
        const double fraction = total ? static_cast<double>(done) / static_cast<double>(total) : -1.0;
        m_panel->showProgress(
            fraction >= 0 ? tr("%1: %2 %").arg(stage).arg(fraction * 100.0, 0, 'f', 0) : stage, fraction);
    });
    connect(c, &RunController::runFinished, this, [this](int run) {
        m_dashboard->summariesChanged();
        const std::vector<const RunTrace*> traces = m_controller.traces();
        const RunSummary& summary = *traces[static_cast<std::size_t>(run)]->summary();
        if (!summary.error.empty())
            showError(
                tr("The run stopped on an error"),
                tr("%1\n\nThe trace up to the error is shown.").arg(QString::fromStdString(summary.error)));
    });
    connect(c, &RunController::notice, this,
            [this](const QString& text) { statusBar()->showMessage(text, 20000); });
    connect(c, &RunController::failed, this, &MainWindow::onFailed);
    connect(c, &RunController::finished, this, &MainWindow::onFinished);
}

void MainWindow::applyStartup(const CliOptions& options) {
    const bool fromCommandLine = std::any_of(options.given.begin(), options.given.end(),
                                             [](const std::string& name) { return describesRun(name); });
    const QSettings settings;
    RunConfig config = fromCommandLine ? options.run : loadRunConfig(settings, firstLaunchConfig());
    // Files are checked now, as one chosen in the dialog is. A bad one on the command line is an
    // error (also on stderr, for whoever typed it); one left in the settings from last time, since
    // moved or deleted, is dropped with a note.
    const QString fileError = dropUnusableFiles(config);
    QString error;
    if (fromCommandLine && !fileError.isEmpty()) {
        std::fprintf(stderr, "lookahead: %s\n", qPrintable(fileError));
        error = fileError;
    } else if (!fileError.isEmpty()) {
        statusBar()->showMessage(tr("Not using the file from last time: %1").arg(statusLine(fileError)),
                                 30000);
    }
    if (const QString datasetError = m_panel->setConfig(config); !datasetError.isEmpty())
        error = error.isEmpty() ? datasetError : error + QStringLiteral("\n\n") + datasetError;
    const int comparison =
        settings.value(QStringLiteral("run/comparison"), static_cast<int>(Comparison::Policy)).toInt();
    m_panel->setComparison(fromCommandLine ? options.comparison : static_cast<Comparison>(comparison));
    if (!error.isEmpty())
        showError(tr("Cannot start with these settings"), error);
    refreshCacheView();
    if (!options.importTrace.empty() && error.isEmpty()) {
        // `lookahead --import-trace FILE [--run]`: the trace beside its model, started once read.
        if (options.startRun)
            connect(
                this, &MainWindow::traceImported, this,
                [this](const QString& importError) {
                    if (importError.isEmpty())
                        startRun();
                },
                Qt::SingleShotConnection);
        importTraceFile(QString::fromStdString(options.importTrace),
                        QString::fromStdString(options.traceRelation));
        return;
    }
    if (!options.sweep.empty()) {
        // `lookahead --sweep SPEC [--run]`: the Sweep view on that spec, its sweep started at once.
        SweepWindow* sweep = sweepWindow();
        sweep->show();
        if (sweep->loadSpec(QString::fromStdString(options.sweep)) && options.startRun)
            QTimer::singleShot(0, sweep, &SweepWindow::startSweep);
        return;
    }
    if (!options.open.empty()) {
        // `lookahead FILE.lookahead` (a double-click in a file manager): the saved runs.
        openSessionFile(QString::fromStdString(options.open));
        return;
    }
    if (options.startRun && error.isEmpty())
        QTimer::singleShot(0, this, &MainWindow::startRun);
}

SweepWindow* MainWindow::sweepWindow() {
    if (!m_sweepWindow) {
        m_sweepWindow = new SweepWindow(this);
        m_sweepWindow->setWindowFlag(Qt::Window);
        connect(m_sweepWindow, &SweepWindow::runCell, this, &MainWindow::runSweepCell);
    }
    return m_sweepWindow;
}

void MainWindow::runSweepCell(const RunConfig& config) {
    if (const QString error = m_panel->setConfig(config); !error.isEmpty()) {
        showError(tr("Cannot show this cell"), error);
        return;
    }
    m_panel->setComparison(Comparison::Policy);
    raise();
    activateWindow();
    startRun();
}

// Where real runs keep dataset files for the settings shown (--cache-dir or the default).
void MainWindow::refreshCacheView() {
    try {
        m_panel->cacheView()->refresh(QString::fromStdString(datasetCacheDir(m_panel->config())));
    } catch (const InputError&) {
        // No directory at all (no HOME): nothing cached either; the run says why if it needs one.
    }
}

void MainWindow::startRun() {
    if (const QString error = m_panel->configError(); !error.isEmpty()) {
        showError(tr("Cannot run"), error);
        return;
    }
    saveSettings();
    if (m_trace && m_panel->comparison() == Comparison::Observed)
        m_controller.start(makeImportExperiment(m_trace, m_tracePath.toStdString(), m_panel->config()));
    else
        m_controller.start(makeExperiment(m_panel->config(), m_panel->comparison()));
}

void MainWindow::stopRun() {
    if (m_controller.running()) {
        m_controller.stop();
        m_panel->showProgress(tr("Stopping…"), -1.0);
    }
}

// Any edit in the panel may make the plots on screen describe settings that are no longer set.
void MainWindow::watchSettings() {
    for (auto* combo : m_panel->findChildren<QComboBox*>())
        connect(combo, &QComboBox::currentTextChanged, this, &MainWindow::updateStale);
    for (auto* box : m_panel->findChildren<QSpinBox*>())
        connect(box, &QSpinBox::valueChanged, this, &MainWindow::updateStale);
    for (auto* box : m_panel->findChildren<QDoubleSpinBox*>())
        connect(box, &QDoubleSpinBox::valueChanged, this, &MainWindow::updateStale);
    for (auto* check : m_panel->findChildren<QCheckBox*>())
        connect(check, &QCheckBox::toggled, this, &MainWindow::updateStale);
    for (auto* edit : m_panel->findChildren<QLineEdit*>())
        connect(edit, &QLineEdit::textChanged, this, &MainWindow::updateStale);
}

void MainWindow::updateStale() {
    if (m_controller.variants().empty())
        return;
    bool stale = true;
    try {
        const Experiment shown =
            m_trace && m_panel->comparison() == Comparison::Observed
                ? makeImportExperiment(m_trace, m_tracePath.toStdString(), m_panel->config())
                : makeExperiment(m_panel->config(), m_panel->comparison());
        stale = experimentKey(shown) != experimentKey(m_controller.experiment());
    } catch (const InputError&) {
        // Settings that cannot run are not the ones shown either.
    }
    m_dashboard->setStale(stale);
}

void MainWindow::onStarted() {
    m_startShown = false;
    m_failure.clear();
    m_panel->setRunning(true);
    m_runAction->setEnabled(false);
    m_stopAction->setEnabled(true);
    m_clockRun = -1;
    m_panel->showProgress(tr("Starting…"), -1.0);
    statusBar()->showMessage(tr("Running: press Stop (Esc) to stop"));
}

void MainWindow::onTracesChanged() {
    m_openedSession.clear(); // set again by openSessionFile() once its runs are shown
    m_startShown = true;
    m_dashboard->setStale(false);
    m_dashboard->setVerdict({});
    m_dashboard->setExpectedPositions(0);
    m_dashboard->setRuns(m_controller.traces());
    m_dashboard->setLive(true);
}

void MainWindow::onFailed(const QString& message) {
    m_failure = message;
    const bool kept = !m_startShown && !m_controller.traces().empty();
    showError(tr("Cannot run"),
              kept ? tr("%1\n\nThe plots still show the previous results.").arg(message) : message);
}

void MainWindow::onProgress(int run, int runs, quint64 done, quint64 total) {
    if (run != m_clockRun) {
        m_runClock.restart();
        m_clockRun = run;
    }
    if (total == 0 || runs == 0)
        return;
    m_dashboard->setExpectedPositions(total);
    const double part = static_cast<double>(done) / static_cast<double>(total);
    const double elapsed = static_cast<double>(m_runClock.elapsed()) * 1e6;
    QString text = tr("Run %1/%2 (%3): %4 / %5 blocks")
                       .arg(run + 1)
                       .arg(runs)
                       .arg(QString::fromStdString(
                                m_controller.runningExperiment().runs[static_cast<std::size_t>(run)].label),
                            formatCount(done), formatCount(total));
    if (done > 0 && done < total)
        text +=
            tr(" — ETA %1")
                .arg(formatDuration(elapsed * static_cast<double>(total - done) / static_cast<double>(done)));
    m_panel->showProgress(text, (run + part) / runs);
}

void MainWindow::onFinished(bool cancelled) {
    m_panel->setRunning(false);
    refreshCacheView();
    m_runAction->setEnabled(true);
    m_stopAction->setEnabled(false);
    if (!m_startShown) {
        // Nothing of this start reached the screen: the plots, summary and verdict are the last run's.
        const QString outcome = !m_failure.isEmpty() ? tr("Failed: %1").arg(statusLine(m_failure))
                                : cancelled          ? tr("Stopped before the run began")
                                                     : tr("Done");
        const QString kept =
            m_controller.traces().empty() ? QString() : tr(" — the previous results are shown");
        m_panel->showProgress(outcome, 0.0);
        statusBar()->showMessage(outcome + kept);
        updateStale();
        return;
    }
    const std::vector<RunSummary> runs = m_controller.summaries();
    m_dashboard->setVerdict(variantVerdict(m_controller.variants(), runs));
    m_dashboard->setLive(false);
    m_dashboard->summariesChanged();
    const QString outcome = !m_failure.isEmpty() ? tr("Failed: %1").arg(statusLine(m_failure))
                            : cancelled          ? tr("Stopped")
                                                 : tr("Done");
    m_panel->showProgress(outcome, cancelled || !m_failure.isEmpty() ? 0.0 : 1.0);
    statusBar()->showMessage(m_dashboard->verdict().isEmpty()
                                 ? outcome
                                 : outcome + QStringLiteral(" — ") + m_dashboard->verdict());
}

void MainWindow::showError(const QString& title, const QString& text) {
    if (m_errorDialog)
        m_errorDialog->close();
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_errorDialog = box;
    box->open();
}

QMessageBox* MainWindow::errorDialog() const {
    return m_errorDialog;
}

QString MainWindow::caption() const {
    return runCaption(m_controller.variants());
}

QString MainWindow::outputConflict(const QString& path) const {
    try {
        std::vector<NamedPath> inputs = runInputs(m_controller.config());
        for (const RunVariant& run : m_controller.experiment().runs)
            if (run.observed)
                inputs.push_back({"The imported trace", run.tracePath});
        checkOutputsApart(inputs, {{"The export file", path.toStdString()}});
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

QString MainWindow::exportPlots(const PlotExportRequest& request) {
    if (m_controller.traces().empty())
        return tr("Nothing to export yet: run an experiment first.");
    if (const QString conflict = outputConflict(request.path); !conflict.isEmpty())
        return conflict;
    m_lastExport = request;
    PlotExport what;
    what.format = request.format;
    what.size = request.size;
    what.scale = request.scale;
    what.plotIndex = request.plotIndex;
    what.caption = caption();
    what.experiment = m_controller.experiment();
    what.runs = m_controller.summaries();
    // A reopened session keeps where it was made; a live run is described as it is now.
    if (what.experiment.provenance.empty())
        what.experiment.provenance = experimentProvenance(what.experiment, what.runs, "lookahead (window)");
    return writePlotFile(request.path, *m_dashboard, what);
}

void MainWindow::openExportDialog(int plotIndex) {
    QStringList titles;
    for (PlotView* view : m_dashboard->views())
        titles << view->title();
    PlotExportRequest initial = m_lastExport;
    initial.plotIndex = plotIndex;
    auto* dialog = new ExportDialog(titles, initial, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::requested, this, [this](const PlotExportRequest& request) {
        const QString error = exportPlots(request);
        if (error.isEmpty())
            statusBar()->showMessage(tr("Wrote %1").arg(request.path), 10000);
        else
            showError(tr("Export failed"), error);
    });
    dialog->open();
}

QString MainWindow::exportSummaryJson(const QString& path) {
    if (const QString conflict = outputConflict(path); !conflict.isEmpty())
        return conflict;
    return writeSummaryJson(path, m_controller.experiment(), m_controller.summaries());
}

void MainWindow::saveJson(const QString& path) {
    const QString error = exportSummaryJson(path);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Wrote %1").arg(path), 10000);
    else
        showError(tr("Export failed"), error);
}

QString MainWindow::exportTraceCsv(const QString& path) {
    if (m_traceExport)
        return tr("A trace CSV is being written already (%1).").arg(m_traceExport->path());
    const std::vector<const RunTrace*> traces = m_controller.traces();
    const std::vector<std::shared_ptr<const EventSpool>> spools = m_controller.spools();
    if (traces.empty())
        return tr("Nothing to export yet: run an experiment first.");
    std::vector<SpooledRun> runs;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        const QString label = QString::fromStdString(traces[i]->label());
        if (!spools[i])
            return tr("Run %1 is still going: wait until it has finished, or stop it, then export.")
                .arg(label);
        if (!spools[i]->broken().empty())
            return tr("The events of run %1 were not kept (%2), so its trace cannot be exported. "
                      "Run it again, or from the command line with --trace-csv FILE.")
                .arg(label, QString::fromStdString(spools[i]->broken()));
        runs.push_back({traces[i]->label(), spools[i]});
    }
    if (const QString conflict = outputConflict(path); !conflict.isEmpty())
        return conflict;
    auto* job = new TraceExport(path, std::move(runs), this);
    m_traceExport = job;
    QProgressDialog* progress = jobProgress(this, job, tr("Export CSV trace"),
                                            tr("Writing the trace of the runs on screen to %1…").arg(path));
    connect(job, &TraceExport::finished, this, [this, job, progress, path](const QString& error) {
        progress->close();
        job->deleteLater();
        if (error.isEmpty())
            statusBar()->showMessage(tr("Wrote %1").arg(path), 10000);
        else
            showError(tr("Export failed"), error);
        emit traceCsvFinished(path, error);
    });
    job->start();
    return {};
}

QString MainWindow::saveSessionFile(const QString& path) {
    if (m_sessionJob)
        return tr("A session is being saved or opened already (%1).").arg(m_sessionJob->path());
    const std::vector<const RunTrace*> traces = m_controller.traces();
    const std::vector<std::shared_ptr<const EventSpool>> spools = m_controller.spools();
    if (traces.empty())
        return tr("Nothing to save yet: run an experiment first.");
    if (!m_openedSession.isEmpty())
        return tr("These runs were opened from %1; they are saved there already.").arg(m_openedSession);
    for (std::size_t i = 0; i < traces.size(); ++i) {
        const QString label = QString::fromStdString(traces[i]->label());
        if (!spools[i])
            return tr("Run %1 is still going: wait until it has finished, or stop it, then save.").arg(label);
        if (!spools[i]->broken().empty())
            return tr("The events of run %1 were not kept (%2), so it cannot be saved. Run it again, or from "
                      "the command line with --save FILE.")
                .arg(label, QString::fromStdString(spools[i]->broken()));
    }
    if (const QString conflict = outputConflict(path); !conflict.isEmpty())
        return conflict;
    Experiment experiment = m_controller.experiment();
    const std::vector<RunSummary> summaries = m_controller.summaries();
    experiment.provenance = experimentProvenance(experiment, summaries, "lookahead (window)");
    auto* job = SessionJob::save(path, std::move(experiment), summaries, spools, this);
    m_sessionJob = job;
    QProgressDialog* progress =
        jobProgress(this, job, tr("Save run"), tr("Saving the runs on screen to %1…").arg(path));
    connect(job, &SessionJob::finished, this, [this, job, progress, path](const QString& error) {
        progress->close();
        job->deleteLater();
        if (error.isEmpty()) {
            rememberSession(path);
            statusBar()->showMessage(tr("Saved %1").arg(path), 10000);
        } else {
            showError(tr("Save failed"), error);
        }
        emit sessionSaved(path, error);
    });
    job->start();
    return {};
}

void MainWindow::openSessionFile(const QString& path) {
    if (m_sessionJob) {
        showError(tr("Cannot open the session"),
                  tr("A session is being saved or opened already (%1).").arg(m_sessionJob->path()));
        emit sessionOpened(path, tr("busy"));
        return;
    }
    auto* job = SessionJob::open(path, this);
    m_sessionJob = job;
    QProgressDialog* progress = jobProgress(this, job, tr("Open session"), tr("Reading %1…").arg(path));
    connect(job, &SessionJob::finished, this, [this, job, progress, path](const QString& error) {
        progress->close();
        job->deleteLater();
        if (!error.isEmpty()) {
            showError(tr("Cannot open the session"), error);
            emit sessionOpened(path, error);
            return;
        }
        Experiment experiment = job->opened().experiment;
        // The panel takes A's settings, so that a new run (B against this baseline) runs alike.
        if (!experiment.runs.front().observed) {
            // A dataset file since moved or deleted is not there to run again; the runs still show.
            if (const QString panelError = m_panel->setConfig(experiment.runs.front().config);
                panelError.isEmpty())
                m_panel->setComparison(experiment.comparison);
            else
                statusBar()->showMessage(
                    tr("Cannot run these settings again: %1").arg(statusLine(panelError)), 30000);
        }
        m_failure.clear();
        m_controller.showLoaded(std::move(experiment), std::move(job->traces()));
        m_openedSession = path;
        rememberSession(path);
        statusBar()->showMessage(tr("Opened %1 — %2").arg(path, m_dashboard->verdict()), 15000);
        emit sessionOpened(path, {});
    });
    job->start();
}

QString MainWindow::runAgainstBaseline() {
    if (m_openedSession.isEmpty())
        return tr("Open a saved session first (File → Open session): its run A is the baseline.");
    if (m_sessionJob)
        return tr("A session is being saved or opened already (%1).").arg(m_sessionJob->path());
    if (const QString error = m_panel->configError(); !error.isEmpty())
        return error;
    // B as the panel says (it holds the baseline's settings unless changed), A as it was saved.
    Experiment experiment = makeExperiment(m_panel->config(), m_panel->comparison());
    if (experiment.runs.size() < 2)
        return tr("Say what B changes (Compare in the run setup panel), then run B against the baseline.");
    auto* job = SessionJob::open(m_openedSession, this, true);
    m_sessionJob = job;
    QProgressDialog* progress =
        jobProgress(this, job, tr("Run B against this baseline"), tr("Reading %1…").arg(m_openedSession));
    connect(
        job, &SessionJob::finished, this, [this, job, progress, experiment](const QString& error) mutable {
            progress->close();
            job->deleteLater();
            if (!error.isEmpty()) {
                showError(tr("Cannot run against the baseline"), error);
                return;
            }
            const RunVariant& saved = job->opened().experiment.runs.front();
            if (saved.observed) {
                showError(tr("Cannot run against the baseline"),
                          tr("Run A of this session is an imported trace: import it again to model it."));
                return;
            }
            experiment.runs.front() = saved;
            saveSettings();
            m_controller.startAgainst(experiment, std::move(job->traces().front()), job->spools().front());
        });
    job->start();
    return {};
}

void MainWindow::rememberSession(const QString& path) {
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

void MainWindow::fillRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("session/recent")).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openSessionFile(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::chooseFile(const QString& title, const QString& filter, bool save,
                            const std::function<void(const QString&)>& then) {
    auto* dialog = new QFileDialog(this, title, QString(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(save ? QFileDialog::AcceptSave : QFileDialog::AcceptOpen);
    dialog->setFileMode(save ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, then);
    dialog->open();
}

void MainWindow::openFile(const QString& path) {
    // Checked now, so a bad file is reported when it is chosen rather than at the next run.
    try {
        inspectScanFile(path.toStdString());
    } catch (const InputError& error) {
        showError(tr("Cannot scan this file"), QString::fromUtf8(error.what()));
        return;
    }
    m_panel->datasetPicker()->setFile(path);
    updateStale();
    RunConfig config = m_panel->config();
    if (config.io == IoMode::Sim) {
        config.io = IoMode::IoUring;
        if (const QString error = m_panel->setConfig(config); !error.isEmpty())
            showError(tr("Cannot use the file"), error);
        statusBar()->showMessage(tr("A file is read with real I/O: switched the I/O method to io_uring"),
                                 15000);
    }
}

void MainWindow::openBlockList(const QString& path) {
    // Checked now, so a bad file is reported when it is chosen rather than at the next run.
    try {
        loadBlockList(path.toStdString(), Direction::Forward);
    } catch (const InputError& error) {
        showError(tr("Cannot use the block list"), QString::fromUtf8(error.what()));
        return;
    }
    m_panel->datasetPicker()->setBlockList(path);
    updateStale();
}

namespace {

// The last three components of a relation's path ("base/5/16384"), which is what tells relations
// apart, fit for a narrow panel.
QString shortPath(const std::string& path) {
    const QString text = QString::fromStdString(excerpt(path, 200));
    const QStringList parts = text.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return parts.size() > 3 ? QStringLiteral("…/") + parts.mid(parts.size() - 3).join(QLatin1Char('/'))
                            : text;
}

// What the panel says about an imported trace: the relation, its reads, and what the trace lacks.
QString traceDescription(const QString& path, const ObservedTrace& trace) {
    QStringList lines{QObject::tr("%1 (%2): %3 reads of %4")
                          .arg(QFileInfo(path).fileName(), QLatin1String(traceFormatName(trace.format)))
                          .arg(formatCount(trace.reads.size()))
                          .arg(shortPath(trace.relation))};
    if (trace.processes.size() > 1)
        lines << QObject::tr("merged from %1 processes (I/O workers)").arg(trace.processes.size());
    if (!trace.hasTimes)
        lines << QObject::tr("no timestamps (strace -ttt): reads placed 1 µs apart");
    else if (!trace.hasDurations)
        lines << QObject::tr("no durations (strace -T): reads drawn as instantaneous");
    if (trace.uringEnters > 0)
        lines << QObject::tr("%1 io_uring_enter calls: their reads are not in a syscall trace")
                     .arg(trace.uringEnters);
    for (const std::string& note : trace.notes) // skipped lines, short reads, ... (already escaped)
        lines << QString::fromStdString(note);
    return lines.join(QLatin1Char('\n'));
}

// The relation picker's entries: "name — N reads, size" and the --trace-relation value.
QStringList relationChoices(const ObservedTrace& trace, int& current) {
    QStringList choices;
    current = 0;
    for (const TracedFile& file : trace.files) {
        QString value = QString::fromStdString(file.name);
        if (value.startsWith(QStringLiteral("fd ")))
            value = QStringLiteral("fd:") + value.section(QLatin1Char(' '), 1, 1);
        if (file.name == trace.relation)
            current = static_cast<int>(choices.size());
        choices << QStringLiteral("%1 — %2 reads, %3\t%4")
                       .arg(shortPath(file.name), formatCount(file.reads),
                            QString::fromStdString(byteSize(file.bytes)), value);
    }
    return choices;
}

} // namespace

void MainWindow::importTraceFile(const QString& path, const QString& relation) {
    if (m_traceImport)
        m_traceImport->cancel();
    auto* job = new TraceImportJob({path.toStdString(), TraceFormat::Auto, relation.toStdString()}, this);
    m_traceImport = job;
    QProgressDialog* progress = jobProgress(this, job, tr("Import trace"), tr("Reading %1…").arg(path));
    connect(
        job, &TraceImportJob::finished, this,
        [this, job, progress, path](std::shared_ptr<const ObservedTrace> trace, const QString& error) {
            progress->close();
            job->deleteLater();
            if (!error.isEmpty()) {
                showError(tr("Cannot import the trace"), error);
            } else if (trace) {
                m_trace = std::move(trace);
                m_tracePath = path;
                int current = 0;
                const QStringList relations = relationChoices(*m_trace, current);
                m_panel->setTrace(traceDescription(path, *m_trace), relations, current);
                updateStale();
                statusBar()->showMessage(
                    tr("Imported %1 reads of %2: press Run to see them beside the model")
                        .arg(formatCount(m_trace->reads.size()), QString::fromStdString(m_trace->relation)),
                    20000);
            }
            emit traceImported(error);
        });
    job->start();
}

namespace {

QString share(std::uint64_t part, std::uint64_t whole) {
    return QStringLiteral("%1 %").arg(
        whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0, 0, 'f', 0);
}

// The index facts, shown as a dataset's description is.
QString pgFactsText(const RunConfig& config, const pg::IndexFacts& f) {
    const std::uint64_t steps = f.ascendingSteps + f.descendingSteps + f.randomSteps;
    return QObject::tr(
               "%1 on %2\n%3 leaf pages, %4 TIDs (%5 posting lists, %6 dead items skipped)\n"
               "%7 heap visits over %8 distinct blocks; steps %9 ascending, %10 descending, %11 random%12")
        .arg(shortPath(config.pg.index), shortPath(config.pg.heap), formatCount(f.leafPages),
             formatCount(f.tids), formatCount(f.postingLists), formatCount(f.deadItems),
             formatCount(f.visits), formatCount(f.distinctBlocks), share(f.ascendingSteps, steps))
        .arg(share(f.descendingSteps, steps), share(f.randomSteps, steps),
             f.checksums ? QObject::tr("; checksums verified") : QString());
}

} // namespace

void MainWindow::openPgScan(const RunConfig& config) {
    struct Result {
        pg::IndexFacts facts;
        std::string error;
    };
    auto result = std::make_shared<Result>();
    if (m_pgCheck) {
        showError(tr("Cannot scan this index"), tr("Another index is being read; wait until it is done."));
        return;
    }
    QThread* check = QThread::create([config, result] {
        try {
            openSource(config, &result->facts);
        } catch (const InputError& error) {
            result->error = error.what();
        }
    });
    statusBar()->showMessage(tr("Reading the index %1…").arg(QString::fromStdString(config.pg.index)));
    m_pgCheck = check;
    connect(check, &QThread::finished, this, [this, check, result, config] {
        check->wait();
        check->deleteLater();
        m_pgCheck = nullptr;
        const QString error = QString::fromStdString(result->error);
        if (!error.isEmpty()) {
            showError(tr("Cannot scan this index"), error);
        } else {
            (void)m_panel->setConfig(config);
            m_panel->setPgScan(pgFactsText(config, result->facts));
            updateStale();
            statusBar()->showMessage(tr("Index read: press Run to scan its table through the policies"),
                                     15000);
        }
        emit pgScanChecked(error);
    });
    check->start();
}

void MainWindow::closeTrace() {
    m_trace.reset();
    m_tracePath.clear();
    m_panel->setTrace({}, {}, 0);
    updateStale();
}

void MainWindow::saveSettings() const {
    QSettings settings;
    saveRunConfig(settings, m_panel->config());
    settings.setValue(QStringLiteral("run/comparison"), static_cast<int>(m_panel->comparison()));
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("view/positionAxis"), m_dashboard->xMode() == XAxis::Position);
    settings.setValue(QStringLiteral("export/size"), m_lastExport.size);
    settings.setValue(QStringLiteral("export/scale"), m_lastExport.scale);
    settings.setValue(QStringLiteral("export/format"), static_cast<int>(m_lastExport.format));
}

void MainWindow::restoreSettings() {
    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (settings.value(QStringLiteral("view/positionAxis"), false).toBool()) {
        m_positionAxis->setChecked(true);
        m_dashboard->setXMode(XAxis::Position);
    }
    m_lastExport.size = settings.value(QStringLiteral("export/size"), m_lastExport.size).toSize();
    m_lastExport.scale = settings.value(QStringLiteral("export/scale"), m_lastExport.scale).toDouble();
    m_lastExport.format = static_cast<PlotFormat>(std::clamp(
        settings.value(QStringLiteral("export/format"), 0).toInt(), 0, static_cast<int>(PlotFormat::Pdf)));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_controller.shutdown();
    saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace la

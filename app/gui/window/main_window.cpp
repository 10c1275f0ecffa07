// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/main_window.h"
#include "experiment/import_summary.h"
#include "experiment/verdict.h"

#include "dashboard.h"
#include "files/background_close.h"
#include "gui/controls/dataset_cache_view.h"
#include "gui/controls/wheel_guard.h"
#include "gui/dialogs/sweep_window.h"
#include "gui/help/help_menu.h"
#include "gui/settings/setting_words.h"
#include "gui/settings/settings_store.h"
#include "gui/window/distinct_notes.h"
#include "gui/window/plan_panel.h"
#include "gui/window/recordings.h"
#include "gui/window/run_setup_panel.h"
#include "input_error.h"
#include "number_text.h"
#include "render/png_export.h"
#include "run_options.h"
#include "scan_target.h"

#include <QActionGroup>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

namespace la {

namespace {

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
        // Settings left unset run as their defaults (a session written by the command line leaves
        // direct I/O unset, and a recording's model names its empty cache "none").
        RunConfig config = run.config;
        config.directIo = streamConfigFor(config).directIo;
        config.prewarm = effectivePrewarm(config);
        key += runOptionsText(config);
        // What a model of a trace visits is no option: the trace's reads, or the scan with its cache.
        key += run.config.blockSequence ? " [the trace's reads]" : "";
        key += run.config.tracedReads ? " [the trace's cache state]" : "";
    }
    return key;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_dashboard(new Dashboard(this)), m_panel(new RunSetupPanel),
      m_sessions(new SessionFiles(m_controller, m_panel, m_dashboard, m_dialogs, this)),
      m_exports(new ScreenExports(m_controller, m_dashboard, m_dialogs, this)),
      m_inputs(new InputOpeners(m_panel, m_dialogs, this)), m_recordings(new Recordings(m_dialogs, this)) {
    enableBackgroundClose(); // a run's spill files must not be closed on the GUI thread
    // The views bin where the traces are fed, off the GUI thread.
    m_dashboard->setModelThread(&m_controller.modelThread());
    setWindowTitle(QStringLiteral("Lookahead"));
    setWindowIcon(QIcon(QStringLiteral(":/lookahead/icon.png")));
    setCentralWidget(m_dashboard);
    buildDock();
    buildPlanDock();
    buildActions();
    buildMenus();
    buildToolBar();
    connectController();
    connect(m_inputs, &InputOpeners::traceImported, this,
            [this] { showRecorded(m_recordings->recordedFor(m_inputs->tracePath())); });
    connect(m_recordings, &Recordings::replay, this, [this](const CliOptions& options) {
        applyStartup(options);
        // Without a trace the replay is a model run of the panel's settings: those are the recording's.
        if (options.importTrace.empty())
            m_recordings->rememberReplay(experimentKey(panelExperiment()));
    });
    connect(m_panel, &RunSetupPanel::runRequested, this, &MainWindow::startRun);
    connect(m_panel, &RunSetupPanel::stopRequested, this, &MainWindow::stopRun);
    connect(m_inputs, &InputOpeners::inputsChanged, this, &MainWindow::updateStale);
    connect(m_sessions, &SessionFiles::aboutToShow, this, [this] { m_failure.clear(); });
    connect(m_sessions, &SessionFiles::aboutToRun, this, &MainWindow::saveSettings);
    m_sessions->setPanelExperiment([this] { return panelExperiment(); });
    connect(m_sessions, &SessionFiles::traceOpened, m_inputs, &InputOpeners::setTrace);
    // The title names the session on screen (the platform appends the application's name).
    for (const auto signal : {&SessionFiles::opened, &SessionFiles::saved})
        connect(m_sessions, signal, this, [this](const QString& path, const QString& error) {
            if (error.isEmpty())
                setWindowTitle(QFileInfo(path).fileName());
        });
    connect(m_sessions, &SessionFiles::opened, this, [this](const QString&, const QString& error) {
        if (!error.isEmpty())
            return;
        // A saved recording run again (Run, or B against this baseline) is still the recording: its
        // plan and reconciliation stay.
        if (const Experiment& shown = m_controller.experiment(); !shown.recorded.isEmpty()) {
            const RunVariant& a = shown.runs.front();
            m_recordings->adopt(shown.recorded, a.observed ? QString::fromStdString(a.tracePath) : QString());
            if (!a.observed)
                m_recordings->rememberReplay(experimentKey(panelExperiment()));
        }
        showRecorded(m_controller.experiment().recorded);
    });
    connect(m_sessions, &SessionFiles::panelRestored, this, [this] {
        // The index scan's facts are read again for the panel, as when it was opened.
        if (const RunConfig config = m_panel->config(); config.pg.active())
            m_inputs->openPgScan(config, false);
    });
    watchSettings();
    // A first window fits the screen it opens on (a 1400×900 screen cut off the side column).
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1500, 950);
    resize(QSize(1500, 950).boundedTo(available));
    restoreSettings();
    m_planDock->setVisible(false); // until runs with a plan are shown
    if (const QString error = m_panel->setConfig(firstLaunchConfig()); !error.isEmpty())
        m_dialogs.showError(tr("Cannot use the default dataset"), error);
    m_notesCount = new QLabel(this);
    m_notesCount->setObjectName(QStringLiteral("notesCount"));
    m_notesCount->setVisible(false);
    statusBar()->addPermanentWidget(m_notesCount);
    statusBar()->showMessage(tr("Ready: press Run (Ctrl+R)"));
}

MainWindow::~MainWindow() {
    // The dashboard, a child widget, outlives the controller and its model thread.
    m_dashboard->setModelThread(nullptr);
    m_controller.shutdown();
}

// The run setup panel, in a dock that scrolls.
void MainWindow::buildDock() {
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(m_panel->sizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    (new WheelGuard(scroll))->protectFieldsOf(m_panel);
    auto* dock = m_setupDock = new QDockWidget(tr("Run setup"), this);
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
}

// The recorded plan's tree beside the plots, a tab beside the run setup's (the plots keep the
// window's width); hidden while the runs shown have no plan.
void MainWindow::buildPlanDock() {
    m_plan = new PlanPanel;
    m_planDock = new QDockWidget(tr("Plan"), this);
    m_planDock->setObjectName(QStringLiteral("plan"));
    m_planDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                            QDockWidget::DockWidgetClosable);
    m_planDock->setWidget(m_plan);
    addDockWidget(Qt::LeftDockWidgetArea, m_planDock);
    tabifyDockWidget(m_setupDock, m_planDock);
    m_planDock->setVisible(false);
    m_planToggle = m_planDock->toggleViewAction();
    m_planToggle->setText(tr("&Plan"));
    m_planToggle->setToolTip(tr("Show or hide the recorded query's plan"));
    m_planToggle->setEnabled(false);
}

void MainWindow::showPlan() {
    const bool had = !m_plan->outline().empty();
    const std::int64_t chosen = m_plan->chosenNode();
    const bool samePlan = m_controller.experiment().recorded == m_planRecorded;
    m_planRecorded = m_controller.experiment().recorded;
    m_plan->setOutline(planOutline(m_controller.experiment(), m_controller.summaries()));
    const bool has = !m_plan->outline().empty();
    // The same plan again (a run finished): the node the user chose stays chosen.
    if (samePlan && has)
        m_plan->chooseNode(chosen);
    m_planToggle->setEnabled(has);
    if (had != has)
        m_planDock->setVisible(has);
    // Chosen when a plan comes, and wide enough for the tree's columns, leaving the plots most of the
    // window.
    if (has && !had) {
        m_planDock->raise();
        resizeDocks({m_planDock}, {std::min(m_plan->wholeWidth(), width() * 9 / 20)}, Qt::Horizontal);
    }
    // `lookahead FILE.lookahead --node ID`: that node, once its plan is shown.
    if (has && m_nodeToChoose) {
        const std::int64_t node = *std::exchange(m_nodeToChoose, std::nullopt);
        if (!m_plan->chooseNode(node))
            m_dialogs.showError(tr("No such node"),
                                tr("--node %1: the recorded plan has no node %1; its nodes are in the Plan "
                                   "tab, each with its node_id")
                                    .arg(node));
    }
}

void MainWindow::buildActions() {
    m_runAction = new QAction(tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_stopAction = new QAction(tr("&Stop"), this);
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopAction->setEnabled(false);
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
    m_resetZoom = new QAction(tr("&Reset zoom"), this);
    m_resetZoom->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_timeAxis->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    m_positionAxis->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::startRun);
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopRun);
    connect(m_timeAxis, &QAction::triggered, this, [this] { m_dashboard->setXMode(XAxis::Time); });
    connect(m_positionAxis, &QAction::triggered, this, [this] { m_dashboard->setXMode(XAxis::Position); });
    connect(m_resetZoom, &QAction::triggered, m_dashboard, &Dashboard::resetZoom);
}

// Each menu group is built by the class that owns its actions.
void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_sessions->addFileActions(file);
    file->addSeparator();
    m_inputs->addFileActions(file);
    m_recordings->addFileActions(file);
    file->addSeparator();
    m_exports->addFileActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addActions({m_runAction, m_stopAction});
    m_sessions->addRunActions(run);
    run->addSeparator();
    run->addAction(tr("S&weep (collapse map, grids of runs)…"), this, [this] {
        sweepWindow()->show();
        sweepWindow()->raise();
    });
    run->addAction(tr("Sweep &this run (eic × io_combine_limit, four policies)…"), this, [this] {
        sweepWindow()->show();
        sweepWindow()->raise();
        // An imported trace's model is B of the experiment the panel makes, not the panel's config.
        RunConfig config = m_panel->config();
        try {
            if (m_inputs->importedTrace() && m_panel->comparison() == Comparison::Observed)
                config = panelExperiment().runs.back().config;
        } catch (const InputError& error) {
            m_dialogs.showError(tr("Cannot sweep this run"), QString::fromUtf8(error.what()));
            return;
        }
        sweepWindow()->sweepRun(config, sweptRunTitle());
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_setupToggle);
    view->addAction(m_planToggle);
    view->addSeparator();
    view->addActions({m_timeAxis, m_positionAxis});
    view->addSeparator();
    view->addAction(m_resetZoom);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    addHelpEntries(help, this);
    help->addSeparator();
    help->addAction(tr("&About Lookahead"), this, &MainWindow::showAbout);
}

void MainWindow::buildToolBar() {
    QToolBar* tools = addToolBar(tr("Run"));
    tools->setObjectName(QStringLiteral("runToolBar"));
    tools->setMovable(false);
    tools->addAction(m_setupToggle);
    tools->addSeparator();
    tools->addActions({m_runAction, m_stopAction});
    tools->addSeparator();
    tools->addActions({m_timeAxis, m_positionAxis, m_resetZoom});
    tools->addSeparator();
    tools->addAction(m_exports->plotsAction());
}

void MainWindow::showAbout() {
    auto* box =
        new QMessageBox(QMessageBox::Information, tr("About Lookahead"),
                        tr("<b>Lookahead %1</b><p>Watch PostgreSQL's read stream think: read-ahead distance, "
                           "hits and misses, I/O sizes and combined requests, live.</p>"
                           "<p>GPL-3.0-or-later. Plots drawn with QCustomPlot.</p>")
                            .arg(QStringLiteral(LOOKAHEAD_VERSION)),
                        QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::connectController() {
    RunController* c = &m_controller;
    connect(c, &RunController::started, this, &MainWindow::onStarted);
    connect(c, &RunController::tracesChanged, this, &MainWindow::onTracesChanged);
    connect(c, &RunController::repeatStarted, this, [this](int run, int repeat, int repeats) {
        m_runClock.restart();
        m_clockRun = run;
        const int runs = static_cast<int>(m_controller.runningExperiment().runs.size());
        m_repeatSteps = runs * repeats;
        m_repeatStep = repeat * runs + run;
        m_repeatText = tr(", repeat %1/%2").arg(repeat + 1).arg(repeats);
        m_panel->showProgress(tr("Run %1/%2%3 starting…").arg(run + 1).arg(runs).arg(m_repeatText),
                              static_cast<double>(m_repeatStep) / m_repeatSteps);
        // A and B take turns repeat by repeat: neither pane waits for the other to finish.
        m_firstWaiting = std::numeric_limits<std::size_t>::max();
        m_dashboard->setWaiting(m_firstWaiting, runsTakeTurnsOnDevice());
    });
    connect(c, &RunController::runStarted, this, [this](int run, int runs) {
        m_repeatStep = -1;
        m_repeatText.clear();
        m_runClock.restart();
        m_clockRun = run;
        m_panel->showProgress(tr("Run %1/%2 starting…").arg(run + 1).arg(runs),
                              static_cast<double>(run) / runs);
        m_firstWaiting = static_cast<std::size_t>(run) + 1;
        m_dashboard->setWaiting(m_firstWaiting, runsTakeTurnsOnDevice());
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
        showPlan();
        const std::vector<const RunTrace*> traces = m_controller.traces();
        const RunSummary& summary = *traces[static_cast<std::size_t>(run)]->summary();
        if (!summary.error.empty())
            m_dialogs.showError(
                tr("The run stopped on an error"),
                tr("%1\n\nThe trace up to the error is shown.").arg(QString::fromStdString(summary.error)));
    });
    connect(c, &RunController::notice, this, [this](const QString& text) {
        statusBar()->showMessage(text, 20000);
        showNotes(m_controller.runningExperiment(), m_controller.runningNoteRuns());
    });
    connect(c, &RunController::failed, this, &MainWindow::onFailed);
    connect(c, &RunController::finished, this, &MainWindow::onFinished);
}

// The panel takes the command line's settings if it names any run option, else the saved ones.
// Returns why these cannot start, empty if they can.
QString MainWindow::setStartupConfig(const CliOptions& options) {
    const bool fromCommandLine = std::any_of(options.given.begin(), options.given.end(),
                                             [](const std::string& name) { return describesRun(name); });
    const QSettings settings;
    RunConfig config = fromCommandLine ? options.run : loadRunConfig(settings, firstLaunchConfig());
    // Files are checked now, as one chosen in the dialog is. A bad one on the command line is an
    // error (also on stderr, for whoever typed it); one left in the settings from last time, since
    // moved or deleted, is dropped with a note.
    const QString fileError = InputOpeners::dropUnusableFiles(config);
    QString error;
    if (fromCommandLine && !fileError.isEmpty()) {
        std::fprintf(stderr, "lookahead: %s\n", qPrintable(fileError));
        error = fileError;
    } else if (!fileError.isEmpty()) {
        m_dialogs.showStatus(tr("Not using the file from last time: %1").arg(statusLine(fileError)), 30000);
    }
    if (const QString datasetError = m_panel->setConfig(config); !datasetError.isEmpty())
        error = error.isEmpty() ? datasetError : error + QStringLiteral("\n\n") + datasetError;
    const int comparison =
        settings.value(QStringLiteral("run/comparison"), static_cast<int>(Comparison::Policy)).toInt();
    m_panel->setComparison(fromCommandLine ? options.comparison : static_cast<Comparison>(comparison));
    return error;
}

void MainWindow::applyStartup(const CliOptions& options) {
    const QString error = setStartupConfig(options);
    if (!error.isEmpty())
        m_dialogs.showError(tr("Cannot start with these settings"), error);
    // An index scan on the command line (or a recording's) is shown with its facts, as when opened.
    if (const RunConfig config = m_panel->config(); error.isEmpty() && config.pg.active())
        m_inputs->openPgScan(config, false);
    refreshCacheView();
    if (!options.importTrace.empty() && error.isEmpty()) {
        // `lookahead --import-trace FILE [--run]`: the trace beside its model, started once read.
        if (options.startRun)
            connect(
                m_inputs, &InputOpeners::traceImported, this,
                [this](const QString& importError) {
                    if (importError.isEmpty())
                        startRun();
                },
                Qt::SingleShotConnection);
        m_panel->setExplainPath(QString::fromStdString(options.explain));
        m_panel->setBackendPid(options.traceBackend.value_or(0));
        m_inputs->importTraceFile(QString::fromStdString(options.importTrace),
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
        m_nodeToChoose = options.node;
        m_sessions->open(QString::fromStdString(options.open));
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

QString MainWindow::sweptRunTitle() const {
    const PlanOutline& outline = m_plan->outline();
    if (outline.modelledRow >= 0) {
        const PlanRow& row = outline.rows[std::size_t(outline.modelledRow)];
        return tr("node %1, %2 on %3").arg(row.nodeId).arg(row.type, row.relation);
    }
    const RunConfig config = m_panel->config();
    return config.blockList.empty() ? QString::fromStdString(config.dataset.name)
                                    : QFileInfo(QString::fromStdString(config.blockList)).fileName();
}

void MainWindow::runSweepCell(const RunConfig& config) {
    if (const QString error = m_panel->setConfig(config); !error.isEmpty()) {
        m_dialogs.showError(tr("Cannot show this cell"), error);
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
        m_dialogs.showError(tr("Cannot run"), error);
        return;
    }
    saveSettings();
    setWindowTitle(QStringLiteral("Lookahead")); // a new run is no saved session
    m_controller.start(panelExperiment());
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

Experiment MainWindow::panelExperiment() const {
    if (m_inputs->importedTrace() && m_panel->comparison() == Comparison::Observed) {
        // The trace gives the cache state (the panel's field is disabled, its text kept for later).
        RunConfig config = m_panel->config();
        config.prewarm.clear();
        Experiment experiment = makeImportExperiment(
            m_inputs->importedTrace(), m_inputs->tracePath().toStdString(), config,
            m_panel->visitsFromScan() ? ModelVisits::FromConfig : ModelVisits::TraceReads);
        experiment.runs[0].explainPath = m_panel->explainPath().toStdString();
        m_recordings->attach(experiment, experimentKey);
        // What the command line would have said of this import, before the runs' own notices.
        experiment.notes = m_inputs->importNotes();
        for (std::string& note : importModelNotes(experiment))
            experiment.notes.push_back(std::move(note));
        return experiment;
    }
    Experiment experiment = makeExperiment(m_panel->config(), m_panel->comparison());
    m_recordings->attach(experiment, experimentKey);
    return experiment;
}

void MainWindow::showRecorded(const QJsonObject& recorded) {
    m_panel->setRecordedNote(recordedNote(recorded), recordedDetails(recorded));
}

void MainWindow::showNotes(const Experiment& experiment, const std::vector<int>& noteRuns,
                           const std::vector<RunSummary>& summaries) {
    std::vector<SaidNote> said;
    if (const ReconciliationLine reconciled = reconciliationLine(summaries);
        !reconciled.disagrees && !reconciled.text.isEmpty())
        said.push_back({reconciled.text});
    for (const QJsonValue& note : experiment.recorded.value(QStringLiteral("notes")).toArray())
        said.push_back({note.toString()});
    for (std::size_t i = 0; i < experiment.notes.size(); ++i)
        said.push_back({QString::fromStdString(experiment.notes[i]), i < noteRuns.size() ? noteRuns[i] : -1});
    QStringList runNames;
    for (std::size_t run = 0; run < experiment.runs.size(); ++run)
        runNames << runName(experiment, run);
    const QStringList notes = distinctNotes(said, runNames);
    m_dashboard->setNotes(notes);
    m_notesCount->setText(notes.size() == 1 ? tr("1 note") : tr("%1 notes").arg(notes.size()));
    m_notesCount->setToolTip(
        tr("The notes of the recording, the import and the runs, listed under the verdict"));
    m_notesCount->setVisible(!notes.isEmpty());
}

void MainWindow::updateStale() {
    if (m_controller.variants().empty())
        return;
    bool stale = true;
    try {
        stale = experimentKey(panelExperiment()) != experimentKey(m_controller.experiment());
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
    m_repeatStep = -1;
    m_repeatText.clear();
    m_panel->showProgress(tr("Starting…"), -1.0);
    statusBar()->showMessage(tr("Running: press Stop (Esc) to stop"));
}

void MainWindow::onTracesChanged() {
    m_startShown = true;
    m_dashboard->setStale(false);
    m_dashboard->setVerdict({});
    m_dashboard->setReconciliation({});
    m_dashboard->setExpectedPositions(0);
    // Live first: the summary keeps the height it has, rather than fitting the new runs' empty rows.
    m_dashboard->setLive(true);
    m_dashboard->setRuns(m_controller.traces());
    m_dashboard->setWaiting(m_firstWaiting, runsTakeTurnsOnDevice());
    showNotes(m_controller.experiment(), m_controller.noteRuns());
    showPlan();
}

void MainWindow::onFailed(const QString& message) {
    m_failure = message;
    const bool kept = !m_startShown && !m_controller.traces().empty();
    const QString shown = kept           ? tr("%1\n\nThe plots still show the previous results.")
                          : m_startShown ? tr("%1\n\nThe plots show the runs that did run.")
                                         : QStringLiteral("%1");
    m_dialogs.showError(tr("Cannot run"), shown.arg(message));
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
    QString text = tr("Run %1/%2 (%3)%4: %5 / %6 blocks")
                       .arg(run + 1)
                       .arg(runs)
                       .arg(QString::fromStdString(
                                m_controller.runningExperiment().runs[static_cast<std::size_t>(run)].label),
                            m_repeatText, formatCount(done), formatCount(total));
    if (done > 0 && done < total)
        text +=
            tr(" — ETA %1")
                .arg(formatDuration(elapsed * static_cast<double>(total - done) / static_cast<double>(done)));
    m_panel->showProgress(text,
                          m_repeatStep >= 0 ? (m_repeatStep + part) / m_repeatSteps : (run + part) / runs);
}

void MainWindow::onFinished(bool cancelled) {
    m_firstWaiting = std::numeric_limits<std::size_t>::max();
    m_dashboard->setWaiting(m_firstWaiting, runsTakeTurnsOnDevice());
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
    const RunsVerdict said = runsVerdict(m_controller.experiment(), runs);
    m_dashboard->setVerdict(windowWording(said.verdict));
    // Figures that do not agree open the verdict, as a banner; those that do are the first note.
    m_dashboard->setReconciliation(said.reconciliation.disagrees ? said.reconciliation.text : QString());
    showNotes(m_controller.experiment(), m_controller.noteRuns(), runs);
    m_dashboard->setLive(false);
    m_dashboard->summariesChanged();
    showPlan();
    const QString outcome = !m_failure.isEmpty() ? tr("Failed: %1").arg(statusLine(m_failure))
                            : cancelled          ? tr("Stopped")
                                                 : tr("Done");
    m_panel->showProgress(outcome, cancelled || !m_failure.isEmpty() ? 0.0 : 1.0);
    // The verdict is above the plots in full; here it ends in "…" rather than at the window's edge.
    const QString verdict =
        m_dashboard->reconciliation().isEmpty() ? m_dashboard->verdict() : m_dashboard->reconciliation();
    m_finishedStatus = verdict.isEmpty() ? outcome : outcome + QStringLiteral(" — ") + verdict;
    showFinishedStatus();
}

// Fitted to the status bar's width again when the window is resized, while it is the message shown.
void MainWindow::showFinishedStatus() {
    statusBar()->showMessage(statusBar()->fontMetrics().elidedText(m_finishedStatus, Qt::ElideRight,
                                                                   std::max(100, statusBar()->width() - 24)));
    m_shownStatus = statusBar()->currentMessage();
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    if (!m_shownStatus.isEmpty() && statusBar()->currentMessage() == m_shownStatus)
        showFinishedStatus();
}

bool MainWindow::runsTakeTurnsOnDevice() const {
    const std::vector<RunVariant>& runs = m_controller.runningExperiment().runs;
    return runs.size() > 1 && std::all_of(runs.begin(), runs.end(), timesRealIo);
}

QString MainWindow::caption() const {
    return runCaption(m_controller.experiment());
}

void MainWindow::saveSettings() const {
    QSettings settings;
    saveRunConfig(settings, m_panel->config());
    settings.setValue(QStringLiteral("run/comparison"), static_cast<int>(m_panel->comparison()));
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("view/positionAxis"), m_dashboard->xMode() == XAxis::Position);
    m_exports->saveSettings(settings);
}

void MainWindow::restoreSettings() {
    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (settings.value(QStringLiteral("view/positionAxis"), false).toBool()) {
        m_positionAxis->setChecked(true);
        m_dashboard->setXMode(XAxis::Position);
    }
    m_exports->restoreSettings(settings);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_controller.shutdown();
    saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace la

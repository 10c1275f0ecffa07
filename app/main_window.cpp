// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include "dashboard.h"
#include "dataset_picker.h"
#include "input_error.h"
#include "io/output_guard.h"
#include "plot_view.h"
#include "png_export.h"
#include "run_setup_panel.h"
#include "settings_store.h"
#include "summary_json.h"
#include "tooltips.h"

#include <QActionGroup>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace la {

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
    connect(m_panel->datasetPicker(), &DatasetPicker::openFileRequested, this, [this] {
        chooseFile(tr("Open a file to scan"), tr("Any file (*)"), false, &MainWindow::openFile);
    });
    connect(m_panel->datasetPicker(), &DatasetPicker::openBlockListRequested, this, [this] {
        chooseFile(tr("Open a block list"), tr("Block lists (*.txt *.csv);;Any file (*)"), false,
                   &MainWindow::openBlockList);
    });
    connect(m_dashboard, &Dashboard::exportPlotRequested, this, &MainWindow::openExportDialog);
    connect(m_dashboard, &Dashboard::exportAllRequested, this, [this] { openExportDialog(-1); });
    watchSettings();
    resize(1500, 950);
    restoreSettings();
    if (const QString error = m_panel->setConfig(firstLaunchConfig()); !error.isEmpty())
        showError(tr("Cannot use the default dataset"), error);
    statusBar()->showMessage(tr("Ready: press Run (Ctrl+R)"));
}

MainWindow::~MainWindow() {
    m_controller.shutdown();
}

void MainWindow::buildActions() {
    m_runAction = new QAction(tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_stopAction = new QAction(tr("&Stop"), this);
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopAction->setEnabled(false);
    m_exportAction = new QAction(tr("&Export plots as PNG…"), this);
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
    file->addAction(tr("&Open file…"), QKeySequence::Open, m_panel->datasetPicker(),
                    &DatasetPicker::openFileRequested);
    file->addAction(tr("Open &block list…"), m_panel->datasetPicker(),
                    &DatasetPicker::openBlockListRequested);
    file->addSeparator();
    file->addAction(m_exportAction);
    file->addAction(tr("Export &CSV trace…"), this, [this] {
        chooseFile(tr("Export CSV trace"), tr("CSV files (*.csv)"), true, &MainWindow::exportTraceCsv);
    });
    file->addAction(tr("Export &JSON summary…"), this, [this] {
        chooseFile(tr("Export JSON summary"), tr("JSON files (*.json)"), true, &MainWindow::saveJson);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_stopAction);

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
    connect(c, &RunController::failed, this,
            [this](const QString& message) { showError(tr("Cannot run"), message); });
    connect(c, &RunController::finished, this, &MainWindow::onFinished);
}

void MainWindow::applyStartup(const CliOptions& options) {
    const bool fromCommandLine = std::any_of(options.given.begin(), options.given.end(),
                                             [](const std::string& name) { return describesRun(name); });
    const QSettings settings;
    const RunConfig config = fromCommandLine ? options.run : loadRunConfig(settings, firstLaunchConfig());
    const QString error = m_panel->setConfig(config);
    const int comparison =
        settings.value(QStringLiteral("run/comparison"), static_cast<int>(Comparison::Policy)).toInt();
    m_panel->setComparison(fromCommandLine ? options.comparison : static_cast<Comparison>(comparison));
    if (!error.isEmpty())
        showError(tr("Cannot use the dataset"), error);
    if (options.startRun && error.isEmpty())
        QTimer::singleShot(0, this, &MainWindow::startRun);
}

void MainWindow::startRun() {
    saveSettings();
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
}

void MainWindow::updateStale() {
    if (m_controller.variants().empty())
        return;
    bool stale = true;
    try {
        stale = runCaption(makeExperiment(m_panel->config(), m_panel->comparison()).runs) != caption();
    } catch (const InputError&) {
        // Settings that cannot run are not the ones shown either.
    }
    m_dashboard->setStale(stale);
}

void MainWindow::onStarted() {
    m_dashboard->setStale(false);
    m_dashboard->setVerdict({});
    m_dashboard->setExpectedPositions(0);
    m_dashboard->setRuns(m_controller.traces());
    m_dashboard->setLive(true);
    m_panel->setRunning(true);
    m_runAction->setEnabled(false);
    m_stopAction->setEnabled(true);
    m_clockRun = -1;
    m_panel->showProgress(tr("Starting…"), -1.0);
    statusBar()->showMessage(tr("Running: press Stop (Esc) to stop"));
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
    QString text =
        tr("Run %1/%2 (%3): %4 / %5 blocks")
            .arg(run + 1)
            .arg(runs)
            .arg(QString::fromStdString(m_controller.traces()[static_cast<std::size_t>(run)]->label()),
                 formatCount(done), formatCount(total));
    if (done > 0 && done < total)
        text +=
            tr(" — ETA %1")
                .arg(formatDuration(elapsed * static_cast<double>(total - done) / static_cast<double>(done)));
    m_panel->showProgress(text, (run + part) / runs);
}

void MainWindow::onFinished(bool cancelled) {
    const std::vector<RunSummary> runs = m_controller.summaries();
    m_dashboard->setVerdict(variantVerdict(m_controller.variants(), runs));
    m_dashboard->setLive(false);
    m_dashboard->summariesChanged();
    m_panel->setRunning(false);
    m_runAction->setEnabled(true);
    m_stopAction->setEnabled(false);
    const QString outcome = cancelled ? tr("Stopped") : tr("Done");
    m_panel->showProgress(outcome, cancelled ? 0.0 : 1.0);
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
        checkOutputsApart(runInputs(m_controller.config()), {{"The export file", path.toStdString()}});
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

QString MainWindow::exportPng(const PngExportRequest& request) {
    if (m_controller.traces().empty())
        return tr("Nothing to export yet: run an experiment first.");
    if (const QString conflict = outputConflict(request.path); !conflict.isEmpty())
        return conflict;
    m_lastExport = request;
    const QImage image = m_dashboard->renderImage(request.size, request.scale, caption(), request.plotIndex);
    return writePng(request.path, image, caption(), m_controller.experiment(), m_controller.summaries());
}

void MainWindow::openExportDialog(int plotIndex) {
    QStringList titles;
    for (PlotView* view : m_dashboard->views())
        titles << view->title();
    PngExportRequest initial = m_lastExport;
    initial.plotIndex = plotIndex;
    auto* dialog = new ExportDialog(titles, initial, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::requested, this, [this](const PngExportRequest& request) {
        const QString error = exportPng(request);
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

void MainWindow::exportTraceCsv(const QString& path) {
    const Experiment runs = m_controller.variants().empty()
                                ? makeExperiment(m_panel->config(), m_panel->comparison())
                                : m_controller.experiment();
    if (const QString conflict = outputConflict(path); !conflict.isEmpty()) {
        showError(tr("Export failed"), conflict);
        return;
    }
    statusBar()->showMessage(tr("Running again to write every event to %1").arg(path), 10000);
    m_controller.start(runs, path);
}

void MainWindow::chooseFile(const QString& title, const QString& filter, bool save,
                            void (MainWindow::*then)(const QString&)) {
    auto* dialog = new QFileDialog(this, title, QString(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(save ? QFileDialog::AcceptSave : QFileDialog::AcceptOpen);
    dialog->setFileMode(save ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, then);
    dialog->open();
}

void MainWindow::openFile(const QString& path) {
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

void MainWindow::saveSettings() const {
    QSettings settings;
    saveRunConfig(settings, m_panel->config());
    settings.setValue(QStringLiteral("run/comparison"), static_cast<int>(m_panel->comparison()));
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("view/positionAxis"), m_dashboard->xMode() == XAxis::Position);
    settings.setValue(QStringLiteral("export/size"), m_lastExport.size);
    settings.setValue(QStringLiteral("export/scale"), m_lastExport.scale);
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
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_controller.shutdown();
    saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace la

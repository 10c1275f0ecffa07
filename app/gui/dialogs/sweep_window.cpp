// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/dialogs/sweep_window.h"

#include "figure_text.h"
#include "files/output_file.h"
#include "input_error.h"
#include "number_text.h"
#include "render/plot_file.h"
#include "render/sweep_maps.h"
#include "sweep/sweep_runner.h"
#include "sweep_map_view.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>
#include <thread>

namespace la {

namespace {

QString number(double value, int decimals) {
    return std::isnan(value) ? QStringLiteral("–") : QString::number(value, 'f', decimals);
}

} // namespace

SweepWindow::SweepWindow(QWidget* parent)
    : QMainWindow(parent), m_job(this, QStringLiteral("lookahead-sweep")) {
    setWindowTitle(tr("Sweep")); // the platform appends the application's name
    buildUi();
    resize(1300, 560);
}

SweepWindow::~SweepWindow() = default;

void SweepWindow::buildUi() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->addLayout(buildRunBar(central));
    layout->addLayout(buildMapBar(central));
    layout->addWidget(buildMap(central), 1);
    setCentralWidget(central);
    buildMenu();
}

QLayout* SweepWindow::buildRunBar(QWidget* central) {
    m_specBox = new QComboBox(central);
    for (const auto& [name, text] : sweepPresets())
        m_specBox->addItem(QString::fromStdString(name));
    m_specBox->setToolTip(tr("A preset, or a sweep spec file (docs/sweeps.md)"));
    connect(m_specBox, &QComboBox::activated, this,
            [this](int index) { loadSpec(m_specBox->itemText(index)); });
    auto* open = new QPushButton(tr("Open spec…"), central);
    connect(open, &QPushButton::clicked, this, &SweepWindow::chooseSpec);
    m_jobs = new QSpinBox(central);
    m_jobs->setRange(1, 256);
    m_jobs->setValue(int(std::max(1U, std::thread::hardware_concurrency())));
    m_jobs->setPrefix(tr("jobs "));
    m_jobs->setToolTip(tr("Runs at once; the results do not depend on it"));
    m_run = new QPushButton(tr("Run sweep"), central);
    connect(m_run, &QPushButton::clicked, this, &SweepWindow::startSweep);
    m_cancelButton = new QPushButton(tr("Cancel"), central);
    m_cancelButton->setEnabled(false);
    connect(m_cancelButton, &QPushButton::clicked, this, &SweepWindow::cancelSweep);
    m_progress = new QProgressBar(central);
    m_progress->setMinimumWidth(160);
    m_status = new QLabel(central);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Spec:"), central));
    bar->addWidget(m_specBox, 1);
    bar->addWidget(open);
    bar->addWidget(m_jobs);
    bar->addWidget(m_run);
    bar->addWidget(m_cancelButton);
    bar->addWidget(m_progress);
    bar->addWidget(m_status, 1);
    return bar;
}

QLayout* SweepWindow::buildMapBar(QWidget* central) {
    m_metric = new QComboBox(central);
    for (const SweepMetric& metric : sweepMetrics())
        m_metric->addItem(QString::fromUtf8(metric.title.data(), qsizetype(metric.title.size())),
                          QString::fromLatin1(metric.key.data(), qsizetype(metric.key.size())));
    // The collapse map's own colour: where a policy sits at distance 1-2.
    m_metric->setCurrentIndex(m_metric->findData(QStringLiteral("frac_distance_le2")));
    connect(m_metric, &QComboBox::currentIndexChanged, this, &SweepWindow::showMetric);
    m_slice = new QComboBox(central);
    m_slice->setVisible(false);
    connect(m_slice, &QComboBox::currentIndexChanged, this, &SweepWindow::showMetric);
    auto* mapBar = new QHBoxLayout;
    mapBar->addWidget(new QLabel(tr("Colour:"), central));
    mapBar->addWidget(m_metric);
    mapBar->addWidget(m_slice);
    mapBar->addStretch(1);
    mapBar->addWidget(
        new QLabel(tr("Hover a cell for its figures; click it to run it in the main window"), central));
    return mapBar;
}

SweepMapView* SweepWindow::buildMap(QWidget* central) {
    m_map = new SweepMapView(central);
    connect(m_map, &SweepMapView::cellHovered, this,
            [this](SweepCell cell, QPoint global) { QToolTip::showText(global, cellText(cell), m_map); });
    connect(m_map, &SweepMapView::cellClicked, this, [this](SweepCell cell) {
        if (!m_results)
            return;
        const std::uint64_t index = cellOf(cell);
        RunConfig config = sweepRunConfig(*m_results, index, cell.policy);
        config.comparePolicy = m_results->baselines[index];
        emit runCell(config);
    });
    return m_map;
}

void SweepWindow::buildMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open spec…"), this, &SweepWindow::chooseSpec);
    file->addAction(tr("Export &maps (PNG, SVG, PDF)…"), this, [this] { chooseExport(false); });
    file->addAction(tr("Export &CSV…"), this, [this] { chooseExport(true); });
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
}

bool SweepWindow::loadSpec(const QString& specOrPreset) {
    if (running())
        return false;
    try {
        const auto generated = m_runSpecs.find(specOrPreset);
        m_spec = generated != m_runSpecs.end()
                     ? sweepSpecOfText(generated->second, specOrPreset.toStdString())
                     : loadSweepSpec(specOrPreset.toStdString(), false);
    } catch (const InputError& error) {
        QMessageBox::warning(this, tr("Cannot use this sweep spec"), QString::fromUtf8(error.what()));
        return false;
    }
    if (m_specBox->findText(specOrPreset) < 0)
        m_specBox->addItem(specOrPreset);
    m_specBox->setCurrentIndex(m_specBox->findText(specOrPreset));
    const std::uint64_t runs = m_spec->cells() * (m_spec->policies.size() + 1);
    m_status->setText(tr("%1 cells × %2 policies, %3 runs with the baselines")
                          .arg(formatCount(m_spec->cells()))
                          .arg(m_spec->policies.size())
                          .arg(formatCount(runs)));
    m_slice->clear();
    for (std::uint64_t slice = 0; slice < sweepSlices(*m_spec); ++slice)
        m_slice->addItem(QString::fromStdString(sweepSliceName(*m_spec, slice)));
    m_slice->setVisible(m_slice->count() > 1);
    return true;
}

bool SweepWindow::sweepRun(const RunConfig& config, const QString& title) {
    if (running()) {
        m_status->setText(tr("A sweep is running: cancel it to sweep this run"));
        return false;
    }
    const QString label = tr("this run: %1").arg(title);
    try {
        // The trace's reads a model holds in memory are swept from a file of the window's own.
        HeldDirectory lists = HeldDirectory::makePrivate("lookahead-sweep-");
        m_runSpecs[label] = sweepSpecOfRun(config, label.toStdString(), lists);
        m_runLists.insert_or_assign(label, std::move(lists));
    } catch (const std::runtime_error& error) { // InputError, or IoError writing the list
        QMessageBox::warning(this, tr("Cannot sweep this run"), QString::fromUtf8(error.what()));
        return false;
    }
    return loadSpec(label);
}

void SweepWindow::startSweep() {
    if (running() || (!m_spec && !loadSpec(m_specBox->currentText())))
        return;
    m_done = 0;
    m_settingUp = true;
    m_total = m_spec->cells() * (m_spec->policies.size() + 1);
    m_run->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_error.clear();
    m_job.start(
        [this, spec = *m_spec, jobs = m_jobs->value()] {
            try {
                m_pending = runSweep(spec, jobs, m_job.cancelFlag(), [this](const SweepProgress& p) {
                    m_settingUp = p.settingUp;
                    m_done = p.done;
                    m_total = p.total;
                    m_elapsed = p.elapsedSeconds;
                });
            } catch (const InputError& error) {
                m_error = error.what(); // a bad cell, or results too large, found while setting up
            }
        },
        [this] { pollProgress(); }, [this] { finished(); });
}

void SweepWindow::cancelSweep() {
    m_job.cancel();
    m_status->setText(tr("Cancelling…"));
}

void SweepWindow::pollProgress() {
    const SweepProgress progress{m_done.load(), m_total.load(), m_elapsed.load()};
    m_progress->setValue(progress.total ? int(progress.done * 1000 / progress.total) : 0);
    if (m_settingUp.load()) {
        m_status->setText(tr("Setting up: %1 of %2 cells checked")
                              .arg(formatCount(progress.done), formatCount(progress.total)));
        return;
    }
    const double eta = progress.etaSeconds();
    m_status->setText(tr("%1 of %2 runs, %3 s, ETA %4")
                          .arg(formatCount(progress.done), formatCount(progress.total))
                          .arg(progress.elapsedSeconds, 0, 'f', 0)
                          .arg(eta < 0 ? QStringLiteral("–") : QStringLiteral("%1 s").arg(eta, 0, 'f', 0)));
}

void SweepWindow::finished() {
    m_run->setEnabled(true);
    m_cancelButton->setEnabled(false);
    if (!m_error.empty()) {
        m_status->setText(tr("The sweep did not start"));
        QMessageBox::warning(this, tr("Cannot run this sweep"), QString::fromStdString(m_error));
        emit sweepFinished(false);
        return;
    }
    const bool cancelled = m_pending.cancelled;
    if (m_pending.runs.empty()) {
        // Cancelled while setting up: there is nothing to draw, and the maps shown stay as they were.
        m_status->setText(tr("Cancelled while setting up"));
        emit sweepFinished(true);
        return;
    }
    if (cancelled) {
        m_status->setText(tr("Cancelled; the maps show the runs that finished"));
    } else {
        m_progress->setValue(m_progress->maximum());
        m_status->setText(
            tr("%1 runs in %2 s, done").arg(formatCount(m_total.load())).arg(m_elapsed.load(), 0, 'f', 0));
    }
    m_results = std::move(m_pending);
    showMetric();
    emit sweepFinished(cancelled);
}

void SweepWindow::showMetric() {
    if (!m_results)
        return;
    const SweepMetric* metric = findSweepMetric(m_metric->currentData().toString().toStdString());
    m_map->setGrid(sweepGrid(*m_results, *metric, std::uint64_t(std::max(0, m_slice->currentIndex()))));
}

std::uint64_t SweepWindow::cellOf(const SweepCell& cell) const {
    return sweepCellAt(m_results->spec, std::uint64_t(std::max(0, m_slice->currentIndex())), cell.x, cell.y);
}

QString SweepWindow::cellText(const SweepCell& cell) const {
    if (!m_results)
        return {};
    const SweepResults& r = *m_results;
    const std::uint64_t index = cellOf(cell);
    QStringList where;
    const std::vector<std::size_t> at = r.spec.coordinates(index);
    for (std::size_t a = 0; a < r.spec.axes.size(); ++a)
        where << QStringLiteral("%1 = %2").arg(QString::fromStdString(r.spec.axes[a].option),
                                               QString::fromStdString(r.spec.axes[a].values[at[a]]));
    const SweepFigures& f = r.at(index, cell.policy);
    QString text = QStringLiteral("<b>%1</b> — %2<br>")
                       .arg(QString::fromStdString(r.spec.policies[cell.policy].label()),
                            where.join(QStringLiteral(", ")));
    if (!f.done)
        return text + tr("not run (the sweep was cancelled)");
    if (!f.error.empty())
        return text + tr("failed: %1").arg(QString::fromStdString(f.error).toHtmlEscaped());
    text += tr("slowdown %1× vs %2")
                .arg(number(r.slowdown(index, cell.policy), 2), QString::fromStdString(r.baselines[index]));
    // The mapped figures by their names and in their formats in the summary field table.
    for (std::size_t i = 0; i < kSweepFigureCount; ++i) {
        const SweepFigure& kept = sweepFigureTable()[i];
        if (!kept.mapped)
            continue;
        const SummaryField& field = summaryFieldNamed(kept.field);
        text += QStringLiteral("<br>%1 %2 %3")
                    .arg(QString::fromUtf8(field.label.data(), qsizetype(field.label.size())),
                         figureNumberText(field, f.values[i]),
                         QString::fromUtf8(field.unit.data(), qsizetype(field.unit.size())))
                    .trimmed();
    }
    return text;
}

QString SweepWindow::exportMaps(const QString& path) const {
    if (!m_results)
        return tr("There is no sweep to export yet: run one first.");
    const QSize size(int(420 * m_results->spec.policies.size()) + 220, 420);
    SweepMapView view;
    view.resize(size);
    view.setGrid(m_map->grid());
    const Drawing drawing{size, QString::fromStdString(m_map->grid().title),
                          QStringLiteral("lookahead sweep %1 (%2)")
                              .arg(QString::fromStdString(m_results->spec.name),
                                   QString::fromStdString(m_results->spec.source)),
                          [&view, size](QPaintDevice& device) {
                              view.paint(device, size);
                              return true;
                          }};
    return writeDrawingFile(path, plotFormatOf(path), drawing);
}

QString SweepWindow::exportCsv(const QString& path) const {
    if (!m_results)
        return tr("There is no sweep to export yet: run one first.");
    return QString::fromStdString(writeOutputFile(path.toStdString(), "sweep CSV", sweepCsv(*m_results)));
}

void SweepWindow::chooseSpec() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a sweep spec"), {},
                                                      tr("Sweep spec (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadSpec(path);
}

void SweepWindow::chooseExport(bool csv) {
    if (!m_results) {
        QMessageBox::information(this, tr("Nothing to export"), tr("Run a sweep first."));
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(this, csv ? tr("Export the sweep's CSV") : tr("Export the maps"),
                                     csv ? QStringLiteral("sweep.csv") : QStringLiteral("sweep-map.png"),
                                     csv ? tr("CSV (*.csv)") : plotFileFilter(PlotFormat::Png));
    if (path.isEmpty())
        return;
    if (m_spec && QFileInfo(path) == QFileInfo(QString::fromStdString(m_spec->source))) {
        QMessageBox::warning(this, tr("Cannot export"),
                             tr("%1 is the sweep's spec; choose another file.").arg(path));
        return;
    }
    const QString error = csv ? exportCsv(path) : exportMaps(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot export"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 10000);
}

} // namespace la

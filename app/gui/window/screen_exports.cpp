// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/screen_exports.h"

#include "dashboard.h"
#include "experiment/session_io.h"
#include "experiment/summary_json.h"
#include "gui/jobs/run_controller.h"
#include "gui/window/output_conflict.h"
#include "gui/window/window_dialogs.h"
#include "plot_view.h"
#include "render/plot_file.h"
#include "render/png_export.h"

#include <QAction>
#include <QJsonDocument>
#include <QMenu>
#include <QSettings>

#include <algorithm>

namespace la {

ScreenExports::ScreenExports(RunController& controller, Dashboard* dashboard, WindowDialogs& dialogs,
                             QObject* parent)
    : QObject(parent), m_controller(controller), m_dashboard(dashboard), m_dialogs(dialogs),
      m_plotsAction(new QAction(tr("&Export plots (PNG, SVG, PDF)…"), this)) {
    m_plotsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_plotsAction, &QAction::triggered, this, [this] { openDialog(m_lastExport.plotIndex); });
    connect(m_dashboard, &Dashboard::exportPlotRequested, this, &ScreenExports::openDialog);
    connect(m_dashboard, &Dashboard::exportAllRequested, this, [this] { openDialog(-1); });
}

void ScreenExports::addFileActions(QMenu* file) {
    file->addAction(m_plotsAction);
    file->addAction(tr("Export &CSV trace…"), this, [this] {
        m_dialogs.chooseFile(tr("Export CSV trace"), tr("CSV files (*.csv)"), true,
                             [this](const QString& path) {
                                 if (const QString error = exportTraceCsv(path); !error.isEmpty())
                                     m_dialogs.showError(tr("Export failed"), error);
                             });
    });
    file->addAction(tr("Export &JSON summary…"), this, [this] {
        m_dialogs.chooseFile(tr("Export JSON summary"), tr("JSON files (*.json)"), true,
                             [this](const QString& path) { saveJson(path); });
    });
}

QString ScreenExports::exportPlots(const PlotExportRequest& request) {
    if (m_controller.traces().empty())
        return tr("Nothing to export yet: run an experiment first.");
    if (const QString conflict = outputConflict(m_controller, request.path); !conflict.isEmpty())
        return conflict;
    m_lastExport = request;
    PlotExport what;
    what.format = request.format;
    what.size = request.size;
    what.scale = request.scale;
    what.plotIndex = request.plotIndex;
    what.caption = runCaption(m_controller.experiment());
    Experiment experiment = m_controller.experiment();
    const std::vector<RunSummary>& runs = m_controller.summaries();
    // A reopened session keeps where it was made; a live run is described as it is now.
    if (experiment.provenance.empty())
        experiment.provenance = experimentProvenance(experiment, runs, "lookahead (window)");
    what.summary = QJsonDocument(summaryDocument(experiment, runs)).toJson(QJsonDocument::Compact);
    return writePlotFile(request.path, *m_dashboard, what);
}

void ScreenExports::openDialog(int plotIndex) {
    QStringList titles;
    for (PlotView* view : m_dashboard->views())
        titles << view->title();
    PlotExportRequest initial = m_lastExport;
    initial.plotIndex = plotIndex;
    auto* dialog = new ExportDialog(titles, initial, m_dialogs.window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::requested, this, [this](const PlotExportRequest& request) {
        const QString error = exportPlots(request);
        if (error.isEmpty())
            m_dialogs.showStatus(tr("Wrote %1").arg(request.path), 10000);
        else
            m_dialogs.showError(tr("Export failed"), error);
    });
    dialog->open();
}

QString ScreenExports::exportSummaryJson(const QString& path) {
    if (const QString conflict = outputConflict(m_controller, path); !conflict.isEmpty())
        return conflict;
    return writeSummaryJson(path, m_controller.experiment(), m_controller.summaries());
}

void ScreenExports::saveJson(const QString& path) {
    const QString error = exportSummaryJson(path);
    if (error.isEmpty())
        m_dialogs.showStatus(tr("Wrote %1").arg(path), 10000);
    else
        m_dialogs.showError(tr("Export failed"), error);
}

QString ScreenExports::exportTraceCsv(const QString& path) {
    if (m_traceExport)
        return tr("A trace CSV is being written already (%1).").arg(m_traceExport->path());
    const RunsToWrite onScreen = runsToWrite(m_controller, tr("export"), tr("exported"));
    if (!onScreen.error.isEmpty())
        return onScreen.error;
    std::vector<SpooledRun> runs;
    for (std::size_t i = 0; i < onScreen.traces.size(); ++i)
        runs.push_back({onScreen.traces[i]->label(), onScreen.spools[i]});
    if (const QString conflict = outputConflict(m_controller, path); !conflict.isEmpty())
        return conflict;
    auto* job = new EventCsvExport(path, std::move(runs), this);
    m_traceExport = job;
    QProgressDialog* progress = m_dialogs.jobProgress(
        job, tr("Export CSV trace"), tr("Writing the trace of the runs on screen to %1…").arg(path));
    connect(job, &EventCsvExport::finished, this, [this, job, progress, path](const QString& error) {
        progress->close();
        job->deleteLater();
        if (error.isEmpty())
            m_dialogs.showStatus(tr("Wrote %1").arg(path), 10000);
        else
            m_dialogs.showError(tr("Export failed"), error);
        emit traceCsvFinished(path, error);
    });
    job->start();
    return {};
}

void ScreenExports::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("export/size"), m_lastExport.size);
    settings.setValue(QStringLiteral("export/scale"), m_lastExport.scale);
    settings.setValue(QStringLiteral("export/format"), static_cast<int>(m_lastExport.format));
}

void ScreenExports::restoreSettings(const QSettings& settings) {
    m_lastExport.size = settings.value(QStringLiteral("export/size"), m_lastExport.size).toSize();
    m_lastExport.scale = settings.value(QStringLiteral("export/scale"), m_lastExport.scale).toDouble();
    m_lastExport.format = static_cast<PlotFormat>(std::clamp(
        settings.value(QStringLiteral("export/format"), 0).toInt(), 0, static_cast<int>(PlotFormat::Pdf)));
}

} // namespace la

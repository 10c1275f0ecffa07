// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/dialogs/export_dialog.h"
#include "gui/jobs/event_csv_export.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QMenu;
class QSettings;

namespace la {

class Dashboard;
class RunController;
class WindowDialogs;

// What File → Export writes of the runs on screen: the plots (PNG, SVG, PDF, through the export
// dialog, which remembers the last choices), every event as an event CSV (in the background), and
// the summary JSON. Nothing is written over one of the runs' inputs.
class ScreenExports : public QObject {
    Q_OBJECT
public:
    ScreenExports(RunController& controller, Dashboard* dashboard, WindowDialogs& dialogs, QObject* parent);

    // Export plots… (also on the toolbar), Export CSV trace…, Export JSON summary….
    void addFileActions(QMenu* file);
    QAction* plotsAction() const { return m_plotsAction; }

    // Renders and writes the plots on screen as PNG, SVG or PDF; returns an error message, empty on success.
    [[nodiscard]] QString exportPlots(const PlotExportRequest& request);
    [[nodiscard]] QString exportSummaryJson(const QString& path);
    // Writes every event of the runs on screen to `path`, in the background with a progress dialog;
    // traceCsvFinished() follows. Returns why it cannot start, empty if it started.
    QString exportTraceCsv(const QString& path);

    // The export dialog's last choices (size, scale, format), kept between sessions.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

signals:
    // An export of the trace CSV has ended; `error` is empty if `path` was written.
    void traceCsvFinished(const QString& path, const QString& error);

private:
    // The export dialog for one plot (`plotIndex`) or, with -1, the whole dashboard.
    void openDialog(int plotIndex);
    void saveJson(const QString& path);

    RunController& m_controller;
    Dashboard* m_dashboard;
    WindowDialogs& m_dialogs;
    QAction* m_plotsAction;
    PlotExportRequest m_lastExport;
    QPointer<EventCsvExport> m_traceExport;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/dialogs/pg_index_dialog.h"
#include "gui/jobs/observed_import_job.h"
#include "run.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>
#include <string>
#include <vector>

class QMenu;
class QThread;

namespace la {

class RunSetupPanel;
class WindowDialogs;

// What the user opens as the input of a run: a file to scan, a block list, an observed trace to
// import (strace, perf trace, event CSV) and a PostgreSQL index. Each is checked when it is chosen
// (a trace or an index is read in the background) and then set in the run setup panel; a bad one
// gets an error dialog and leaves the panel as it was.
class InputOpeners : public QObject {
    Q_OBJECT
public:
    InputOpeners(RunSetupPanel* panel, WindowDialogs& dialogs, QObject* parent);
    ~InputOpeners() override;

    // Open file to scan…, Open block list…, Import trace…, Open PostgreSQL index….
    void addFileActions(QMenu* file);

    // Scan this file (real I/O) / this block list.
    void openFile(const QString& path);
    void openBlockList(const QString& path);
    // Imports a trace in the background (progress, cancel); `relation` as --trace-relation (empty:
    // the file read most). traceImported() follows.
    void importTraceFile(const QString& path, const QString& relation = {});
    // Sets a trace already read (a saved session's) as if it had just been imported from `path`;
    // null closes the trace set, if any.
    void setTrace(std::shared_ptr<const ObservedTrace> trace, const QString& path);
    void closeTrace();
    // File → Open PostgreSQL index: the dialog (pg_index_dialog.h), which calls openPgScan().
    void openPgIndexDialog();
    // Checks the index scan `config` names on a worker thread (the index is parsed) and sets it;
    // pgScanChecked() follows. Chosen by the user (`chosen`), it is also what the model of an
    // imported trace visits; else (a session's settings shown again) that choice stays.
    void openPgScan(const RunConfig& config, bool chosen = true);

    // The imported trace the panel models, if any, and the file it came from.
    const std::shared_ptr<const ObservedTrace>& importedTrace() const { return m_trace; }
    const QString& tracePath() const { return m_tracePath; }
    // What the import of that trace said (the command line's notes, experiment/import_summary.h), and
    // that its model visits the index scan or block list set up before it, where it does.
    const std::vector<std::string>& importNotes() const { return m_importNotes; }

    // The Open PostgreSQL index dialog, while it is open.
    PgIndexDialog* pgIndexDialog() const { return m_pgDialog; }

    // Checks the files `config` names, as the Open dialogs do; clears each unusable one and returns why.
    static QString dropUnusableFiles(RunConfig& config);

signals:
    // The panel's inputs have changed (the runs on screen may no longer be what it describes).
    void inputsChanged();
    // An import has ended; `error` is empty if the trace is now set.
    void traceImported(const QString& error);
    // An index scan was checked; `error` is empty if the panel now scans it.
    void pgScanChecked(const QString& error);

private:
    void closePgScan();
    void pgScanRefused(const QString& error);

    RunSetupPanel* m_panel;
    WindowDialogs& m_dialogs;
    QPointer<ObservedImportJob> m_traceImport;
    QPointer<PgIndexDialog> m_pgDialog;
    QThread* m_pgCheck = nullptr;                 // reading an index the user chose, if any
    std::shared_ptr<const ObservedTrace> m_trace; // the imported trace the panel models, if any
    QString m_tracePath;
    std::vector<std::string> m_importNotes;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/input_openers.h"

#include "experiment/experiment.h"
#include "experiment/import_summary.h"
#include "gui/dialogs/dataset_picker.h"
#include "gui/settings/setting_words.h"
#include "gui/window/input_descriptions.h"
#include "gui/window/run_setup_panel.h"
#include "gui/window/window_dialogs.h"
#include "input_error.h"
#include "io/scan_file.h"
#include "message_text.h"
#include "number_text.h"

#include <QAction>
#include <QMenu>
#include <QThread>

namespace la {

InputOpeners::InputOpeners(RunSetupPanel* panel, WindowDialogs& dialogs, QObject* parent)
    : QObject(parent), m_panel(panel), m_dialogs(dialogs) {
    connect(m_panel, &RunSetupPanel::relationChosen, this,
            [this](const QString& relation) { importTraceFile(m_tracePath, relation); });
    connect(m_panel, &RunSetupPanel::closeTraceRequested, this, &InputOpeners::closeTrace);
    connect(m_panel, &RunSetupPanel::closePgScanRequested, this, &InputOpeners::closePgScan);
    connect(m_panel->datasetPicker(), &DatasetPicker::openFileRequested, this, [this] {
        m_dialogs.chooseFile(tr("Open a file to scan"), tr("Any file (*)"), false,
                             [this](const QString& path) { openFile(path); });
    });
    connect(m_panel->datasetPicker(), &DatasetPicker::openBlockListRequested, this, [this] {
        m_dialogs.chooseFile(tr("Open a block list"), tr("Block lists (*.txt *.csv);;Any file (*)"), false,
                             [this](const QString& path) { openBlockList(path); });
    });
}

InputOpeners::~InputOpeners() {
    if (m_pgCheck) {
        m_pgCheck->wait();
        delete m_pgCheck;
    }
}

void InputOpeners::addFileActions(QMenu* file) {
    file->addAction(tr("Open &file to scan…"), m_panel->datasetPicker(), &DatasetPicker::openFileRequested);
    file->addAction(tr("Open &block list…"), m_panel->datasetPicker(),
                    &DatasetPicker::openBlockListRequested);
    QAction* import =
        file->addAction(tr("&Import trace (strace, perf trace, kernel capture, CSV)…"), this, [this] {
            m_dialogs.chooseFile(tr("Import a trace of PostgreSQL's reads"),
                                 tr("Traces (*.strace *.trace *.txt *.log *.csv);;Any file (*)"), false,
                                 [this](const QString& path) { importTraceFile(path); });
        });
    import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    import->setToolTip(
        tr("lookahead capture --out FILE --pid PID, strace -f -ttt -T -yy -e trace=pread64,preadv,preadv2 "
           "-p PID, or perf trace -e pread64"));
    file->addAction(tr("Open &PostgreSQL index…"), this, &InputOpeners::openPgIndexDialog);
}

void InputOpeners::openPgIndexDialog() {
    if (m_pgDialog) {
        m_pgDialog->raise();
        return;
    }
    auto* dialog = new PgIndexDialog(m_panel->config(), m_dialogs.window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PgIndexDialog::chosen, this, [this](const RunConfig& config) { openPgScan(config); });
    m_pgDialog = dialog;
    dialog->open();
}

QString InputOpeners::dropUnusableFiles(RunConfig& config) {
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

void InputOpeners::openFile(const QString& path) {
    // Checked now, so a bad file is reported when it is chosen rather than at the next run.
    try {
        inspectScanFile(path.toStdString());
    } catch (const InputError& error) {
        m_dialogs.showError(tr("Cannot scan this file"), QString::fromUtf8(error.what()));
        return;
    }
    m_panel->datasetPicker()->setFile(path);
    emit inputsChanged();
    RunConfig config = m_panel->config();
    if (config.io == IoMode::Sim) {
        config.io = IoMode::IoUring;
        if (const QString error = m_panel->setConfig(config); !error.isEmpty())
            m_dialogs.showError(tr("Cannot use the file"), error);
        m_dialogs.showStatus(tr("A file is read with real I/O: switched the I/O method to io_uring"), 15000);
    }
}

void InputOpeners::openBlockList(const QString& path) {
    // Checked now, so a bad file is reported when it is chosen rather than at the next run.
    try {
        loadBlockList(path.toStdString(), Direction::Forward);
    } catch (const InputError& error) {
        m_dialogs.showError(tr("Cannot use the block list"), QString::fromUtf8(error.what()));
        return;
    }
    m_panel->datasetPicker()->setBlockList(path);
    // Beside an imported trace, a block list is what the scan visited: the model replays it.
    if (m_panel->hasTrace())
        m_panel->setVisitsFromScan(true);
    emit inputsChanged();
}

void InputOpeners::importTraceFile(const QString& path, const QString& relation) {
    if (m_traceImport)
        m_traceImport->cancel();
    auto* job = new ObservedImportJob(
        {path.toStdString(), TraceFormat::Auto, relation.toStdString(),
         m_panel->backendPid() > 0 ? std::optional(m_panel->backendPid()) : std::nullopt},
        this);
    m_traceImport = job;
    QProgressDialog* progress = m_dialogs.jobProgress(job, tr("Import trace"), tr("Reading %1…").arg(path));
    connect(
        job, &ObservedImportJob::finished, this,
        [this, job, progress, path, relation](std::shared_ptr<const ObservedTrace> trace,
                                              const QString& error) {
            progress->close();
            job->deleteLater();
            // Another relation of the same trace keeps what the model visits.
            const bool sameTrace = m_trace && m_tracePath == path;
            const RunConfig config = m_panel->config();
            QString refused = error;
            // A trace of another relation is never joined to the index scan set up before it (a
            // recording's, left in the panel): refused, as the command line refuses it.
            if (refused.isEmpty() && trace && (!sameTrace || m_panel->visitsFromScan()))
                if (const std::string why = traceRelationMismatch(*trace, path.toStdString(), config);
                    !why.empty())
                    refused = windowWording(QString::fromStdString(why)) +
                              tr("\n\nThe index scan is the one set up before (in the run setup's "
                                 "PostgreSQL index scan group): to model this trace's own reads, leave "
                                 "it first with Back to datasets.");
            if (!refused.isEmpty()) {
                m_dialogs.showError(tr("Cannot import the trace"), refused);
            } else if (trace) {
                setTrace(std::move(trace), path);
                m_importNotes = la::importNotes(*m_trace, !relation.isEmpty());
                if (!sameTrace) {
                    // An index scan or a block list already open is what the traced scan visited:
                    // said, since it may have been set up for something else.
                    const bool joined = config.pg.active() || !config.blockList.empty();
                    m_panel->setVisitsFromScan(joined);
                    if (joined)
                        m_importNotes.push_back(
                            "the model of this trace visits the " +
                            (config.pg.active()
                                 ? "index scan set up before it (--pg-index " + printable(config.pg.index) +
                                       ", --pg-heap " + printable(config.pg.heap) + ")"
                                 : "block list set up before it (--blocks " + printable(config.blockList) +
                                       ")") +
                            ": to model the trace's own reads instead, set Model visits to the blocks the "
                            "trace read");
                }
                emit inputsChanged();
                m_dialogs.showStatus(
                    tr("Imported %1 reads of %2: press Run to see them beside the model")
                        .arg(formatCount(m_trace->reads.size()), QString::fromStdString(m_trace->relation)),
                    20000);
            }
            emit traceImported(refused);
        });
    job->start();
}

void InputOpeners::setTrace(std::shared_ptr<const ObservedTrace> trace, const QString& path) {
    if (!trace) {
        if (m_trace)
            closeTrace();
        return;
    }
    m_trace = std::move(trace);
    m_tracePath = path;
    m_importNotes = la::importNotes(*m_trace, false);
    int current = 0;
    QStringList relations = relationChoices(*m_trace, current);
    if (relations.isEmpty()) // a trace that lists no files (a session's, written before they were kept)
        relations << QString::fromStdString(m_trace->relation) + QLatin1Char('\t') +
                         QString::fromStdString(m_trace->relation);
    m_panel->setTrace(traceDescription(path, *m_trace), relations, current);
}

void InputOpeners::closeTrace() {
    m_trace.reset();
    m_tracePath.clear();
    m_importNotes.clear();
    m_panel->setTrace({}, {}, 0);
    emit inputsChanged();
}

void InputOpeners::openPgScan(const RunConfig& config, bool chosen) {
    struct Result {
        pg::IndexFacts facts;
        std::string error;
    };
    auto result = std::make_shared<Result>();
    if (m_pgCheck) {
        const QString busy = tr("Another index is being read; wait until it is done.");
        pgScanRefused(busy);
        emit pgScanChecked(busy);
        return;
    }
    QThread* check = QThread::create([config, result] {
        try {
            openSource(config, &result->facts);
        } catch (const InputError& error) {
            result->error = error.what();
        }
    });
    m_dialogs.showStatus(tr("Reading the index %1…").arg(QString::fromStdString(config.pg.index)));
    m_pgCheck = check;
    connect(check, &QThread::finished, this, [this, check, result, config, chosen] {
        check->wait();
        check->deleteLater();
        m_pgCheck = nullptr;
        const QString error = QString::fromStdString(result->error);
        if (!error.isEmpty()) {
            pgScanRefused(error);
        } else {
            if (m_pgDialog)
                m_pgDialog->checked({});
            (void)m_panel->setConfig(config);
            m_panel->setPgScan(pgFactsText(config, result->facts));
            // Beside an imported trace, the index scan is what the traced scan visited.
            if (chosen && m_panel->hasTrace())
                m_panel->setVisitsFromScan(true);
            emit inputsChanged();
            m_dialogs.showStatus(tr("Index read: press Run to scan its table through the policies"), 15000);
        }
        emit pgScanChecked(error);
    });
    check->start();
}

// Said in the index dialog if it is waiting for this answer (what was typed is still there to
// correct), else in an error dialog.
void InputOpeners::pgScanRefused(const QString& error) {
    // The status bar said it was reading the index: it now says how that ended.
    m_dialogs.showStatus(tr("Cannot scan this index: %1").arg(statusLine(windowWording(error))), 30000);
    if (m_pgDialog && m_pgDialog->isVisible())
        m_pgDialog->checked(error);
    else
        m_dialogs.showError(tr("Cannot scan this index"), error);
}

void InputOpeners::closePgScan() {
    RunConfig config = m_panel->config();
    config.pg = {};
    (void)m_panel->setConfig(config);
    m_panel->setPgScan({});
    emit inputsChanged();
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
// File → Record a query on a server, against a real PostgreSQL 15: the dialog records a cold
// backward index scan and the window replays it beside its model; Cancel in the middle leaves the
// server clean. With LOOKAHEAD_SCREENSHOTS=DIR the window after the recording is saved there.
#include "dashboard.h"
#include "gui/input_openers.h"
#include "gui/main_window.h"
#include "gui/record_dialog.h"
#include "gui/recordings.h"
#include "gui/session_files.h"
#include "pg_server.h"
#include "qcp.h"
#include "signal_waits.h"
#include "window_harness.h"

#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace la;
using namespace la::test;

class TestGuiRecord : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void recordedQueryIsReplayedBesideItsModel();
    void cancelInTheMiddleLeavesTheServerClean();

private:
    RecordDialog* openDialog(MainWindow& window, const QString& query);
    QString sql(const QString& text) {
        QString error;
        const QString out = m_server.sql(text, error);
        if (!error.isEmpty())
            qWarning("%s", qPrintable(error));
        return out;
    }

    PgServer m_server;
    QString m_skip;
};

void TestGuiRecord::initTestCase() {
#ifdef __SANITIZE_THREAD__
    QSKIP("the recording starts strace with QProcess, which TSan cannot follow through fork");
#endif
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("LookaheadTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_gui_record"));
    QSettings().clear();
    m_skip = PgServer::unavailable();
    if (m_skip.isEmpty() && QStandardPaths::findExecutable(QStringLiteral("strace")).isEmpty())
        m_skip = QStringLiteral("strace is not installed (packaging/install-deps.sh installs it)");
    if (!m_skip.isEmpty())
        return;
    const QString error = m_server.startWithHashClusteredTable().error;
    QVERIFY2(error.isEmpty(), qPrintable(error));
    sql(QStringLiteral("VACUUM ANALYZE t"));
}

RecordDialog* TestGuiRecord::openDialog(MainWindow& window, const QString& query) {
    window.recordings()->openDialog();
    RecordDialog* dialog = window.recordings()->dialog();
    if (!dialog)
        return nullptr;
    dialog->connectionField()->setText(QStringLiteral("host=%1 port=%2 dbname=postgres user=postgres")
                                           .arg(m_server.socketDir())
                                           .arg(m_server.port()));
    dialog->queryField()->setPlainText(query);
    dialog->settingsField()->setText(QStringLiteral("enable_bitmapscan=off, enable_seqscan=off"));
    return dialog;
}

void TestGuiRecord::recordedQueryIsReplayedBesideItsModel() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QVERIFY(m_server.restart().isEmpty());
    MainWindow window;
    window.resize(1400, 900);
    window.applyStartup(cliOptions({}));
    window.show();
    const QString query = QStringLiteral("SELECT * FROM t WHERE a <= 10000 ORDER BY a DESC");
    RecordDialog* dialog = openDialog(window, query);
    QVERIFY(dialog);
    QSignalSpy finished(&window.controller(), &RunController::finished);
    QSignalSpy failed(&window.controller(), &RunController::failed);
    dialog->startRecording();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(window));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    QVERIFY(!window.recordings()->dialog()); // closed once recorded
    const Experiment& experiment = window.controller().experiment();
    QCOMPARE(experiment.comparison, Comparison::Observed);
    QCOMPARE(experiment.recorded.value(QStringLiteral("query")).toString(), query);
    const std::vector<RunSummary> runs = window.controller().summaries();
    QCOMPARE(runs.size(), std::size_t(2));
    QVERIFY(runs[0].ios > 0);
    QCOMPARE(runs[1].misses, runs[0].blocks); // every heap block read once, from a cold start
    QVERIFY(runs[1].hits > 0);
    QCOMPARE(m_server.tracedProcesses(), QStringList());
    // The recording's notes, as the command line prints them, are listed under the verdict (first
    // the reconciliation of figures that agree), with their count in the status bar.
    const QJsonArray recordedNotes = experiment.recorded.value(QStringLiteral("notes")).toArray();
    QVERIFY(!recordedNotes.isEmpty());
    const QStringList shown = window.dashboard()->notes();
    for (const QJsonValue& note : recordedNotes)
        QVERIFY2(shown.contains(note.toString()), qPrintable(note.toString()));
    QVERIFY2(shown.filter(QStringLiteral("PostgreSQL 15 has no read stream")).size() == 1,
             qPrintable(shown.join(QLatin1Char('\n'))));
    QVERIFY2(shown.first().startsWith(QStringLiteral("figures reconcile: the model missed")),
             qPrintable(shown.first()));
    QVERIFY(window.dashboard()->reconciliation().isEmpty()); // no banner: nothing disagrees
    auto* count = window.findChild<QLabel*>(QStringLiteral("notesCount"));
    QVERIFY(count && count->isVisible());
    QCOMPARE(count->text(), QStringLiteral("%1 notes").arg(shown.size()));
    if (const QString dir = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !dir.isEmpty()) {
        for (QCustomPlot* plot : window.findChildren<QCustomPlot*>())
            plot->replot();
        window.grab().save(dir + QStringLiteral("/recorded-query.png"));
    }

    // Kept in the session, and listed again on reopening it.
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("recorded.lookahead"));
    QSignalSpy saved(window.sessions(), &SessionFiles::saved);
    QCOMPARE(window.sessions()->save(session), QString());
    QCOMPARE(test::caught(saved, 1, kWindowTimeoutMs), 1);
    QCOMPARE(saved.first().at(1).toString(), QString());
    {
        MainWindow reopened;
        reopened.applyStartup(cliOptions({}));
        QSignalSpy opened(reopened.sessions(), &SessionFiles::opened);
        reopened.sessions()->open(session);
        QCOMPARE(test::caught(opened, 1, kWindowTimeoutMs), 1);
        QCOMPARE(opened.first().at(1).toString(), QString());
        QVERIFY(waitIdle(reopened));
        for (const QJsonValue& note : recordedNotes)
            QVERIFY2(reopened.dashboard()->notes().contains(note.toString()), qPrintable(note.toString()));
    }

    // A trace of another program (ls) imported over the recorded index scan is refused, with the
    // command line's words, not joined to the scan.
    const QString ls = dir.filePath(QStringLiteral("ls.strace"));
    QProcess strace;
    strace.start(QStringLiteral("strace"),
                 {QStringLiteral("-f"), QStringLiteral("-ttt"), QStringLiteral("-T"), QStringLiteral("-yy"),
                  QStringLiteral("-e"), QStringLiteral("trace=read,pread64"), QStringLiteral("-o"), ls,
                  QStringLiteral("ls"), QStringLiteral("/")});
    QVERIFY(strace.waitForFinished(60'000) && strace.exitCode() == 0);
    QSignalSpy imported(window.inputs(), &InputOpeners::traceImported);
    window.inputs()->importTraceFile(ls);
    QCOMPARE(test::caught(imported, 1, kWindowTimeoutMs), 1);
    const QString refused = imported.first().first().toString();
    QVERIFY2(refused.startsWith(QStringLiteral("trace '%1' has no reads of the table ").arg(ls)) &&
                 refused.contains(QStringLiteral("import a trace of that table's scan")),
             qPrintable(refused));
    QVERIFY(window.errorDialog());
    QVERIFY(window.inputs()->importedTrace()); // the recording's trace stays
    QVERIFY(window.inputs()->importedTrace()->relation != ls.toStdString());
}

void TestGuiRecord::cancelInTheMiddleLeavesTheServerClean() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    MainWindow window;
    window.applyStartup(cliOptions({}));
    RecordDialog* dialog =
        openDialog(window, QStringLiteral("SELECT count(*) FROM t WHERE pg_sleep(0.01) IS NOT NULL"));
    QVERIFY(dialog);
    dialog->settingsField()->clear();
    QSignalSpy started(&window.controller(), &RunController::started);
    QSignalSpy status(dialog, &RecordDialog::statusChanged);
    dialog->startRecording();
    QVERIFY2(test::until(
                 status,
                 [dialog] { return dialog->status().contains(QLatin1String("running the query, traced")); },
                 kWindowTimeoutMs),
             qPrintable(dialog->status()));
    dialog->reject(); // Cancel
    QVERIFY2(test::until(
                 status, [dialog] { return dialog->status().startsWith(QLatin1String("Cancelled")); },
                 kWindowTimeoutMs),
             qPrintable(dialog->status()));
    QVERIFY(dialog->isVisible()); // it stays to say how it ended
    QCOMPARE(started.count(), 0);
    QCOMPARE(m_server.tracedProcesses(), QStringList());
    QCOMPARE(sql(QStringLiteral("SELECT count(*) FROM pg_extension WHERE extname = 'pg_buffercache'")),
             QStringLiteral("0"));
    QCOMPARE(
        sql(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")),
        QStringLiteral("1"));
    QSignalSpy closed(dialog, &QDialog::finished);
    dialog->reject(); // now it closes
    QCOMPARE(test::caught(closed, 1, kWindowTimeoutMs), 1);
    QVERIFY(!window.recordings()->dialog());
}

QTEST_MAIN(TestGuiRecord)
#include "tst_gui_record.moc"

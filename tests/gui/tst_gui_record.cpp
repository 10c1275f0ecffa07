// SPDX-License-Identifier: GPL-3.0-or-later
// File → Record a query on a server, against a real PostgreSQL 15: the dialog records a cold
// backward index scan and the window replays it beside its model; Cancel in the middle leaves the
// server clean; its texts fit the window and its exports at 1280×720 and 1600×1000; saved and opened
// again, its panel is the session's; a syntax error points at the word. With
// LOOKAHEAD_SCREENSHOTS=DIR the window after the recording is saved there.
#include "cli_process.h"
#include "dashboard.h"
#include "data_rows.h"
#include "gui/dialogs/record_dialog.h"
#include "gui/window/input_openers.h"
#include "gui/window/main_window.h"
#include "gui/window/plan_panel.h"
#include "gui/window/recordings.h"
#include "gui/window/run_setup_panel.h"
#include "gui/window/session_files.h"
#include "pg_server.h"
#include "qcp.h"
#include "servers/recording.h"
#include "signal_waits.h"
#include "window_harness.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFontInfo>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextDocumentFragment>

using namespace la;
using namespace la::test;

class TestGuiRecord : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void recordedQueryIsReplayedBesideItsModel();
    void reopenedRecordingShowsItsSettings_data();
    void reopenedRecordingShowsItsSettings();
    void reopenedRecordingRunsOnItsKeptVisits();
    void syntaxErrorCaretStandsUnderTheError();
    void cancelInTheMiddleLeavesTheServerClean();

private:
    RecordDialog* openDialog(MainWindow& window, const QString& query);

    PgServer m_server;
    QString m_skip;
    QTemporaryDir m_dir;
    QString m_session; // the recording, saved
};

void TestGuiRecord::initTestCase() {
    LA_SKIP_FORK_UNDER_TSAN(
        "the recording starts strace with QProcess, which TSan cannot follow through fork");
    la::test::useCleanTestSettings();
    m_skip = PgServer::unavailable();
    if (m_skip.isEmpty() && QStandardPaths::findExecutable(QStringLiteral("strace")).isEmpty())
        m_skip = QStringLiteral("strace is not installed (packaging/install-deps.sh installs it)");
    if (!m_skip.isEmpty())
        return;
    const QString error = m_server.startWithHashClusteredTable().error;
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_server.sqlLogged(QStringLiteral("VACUUM ANALYZE t"));
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
    // A recording's verdict is the longest the window shows: whole or cut with "…" at both sizes, in
    // the window and in its exports, whose SVG (the query's "<=" in its metadata) is XML.
    QVERIFY2(window.dashboard()->verdict().size() > 150, qPrintable(window.dashboard()->verdict()));
    checkNothingClipped(window, m_dir.path(), QStringLiteral("recording"));
    if (QTest::currentTestFailed())
        return;
    m_session = m_dir.filePath(QStringLiteral("recorded.lookahead"));
    QCOMPARE(test::saveSessionAndWait(window, m_session), QString());

    // The notes are kept in the session, and listed again on reopening it.
    {
        MainWindow reopened;
        reopened.applyStartup(cliOptions({}));
        QCOMPARE(openSessionAndWait(reopened, m_session), QString());
        for (const QJsonValue& note : recordedNotes)
            QVERIFY2(reopened.dashboard()->notes().contains(note.toString()), qPrintable(note.toString()));
    }

    // A trace of another program (ls) imported over the recorded index scan is refused, with the
    // command line's words, not joined to the scan.
    const QString ls = m_dir.filePath(QStringLiteral("ls.strace"));
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

// The recording saved and opened again, by the window or by `lookahead record --save` as the README
// shows: its panel is the session's (A the trace, B the model's policy, the EXPLAIN its figures came
// from), not settings it never had, and nothing says the settings changed. Run again, the observed run
// has the same EXPLAIN figures and the model the same misses.
void TestGuiRecord::reopenedRecordingShowsItsSettings_data() {
    test::addFlagRows("fromCommandLine", "saved by the window", "saved by lookahead record --save");
}

void TestGuiRecord::reopenedRecordingShowsItsSettings() {
    QFETCH(bool, fromCommandLine);
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    if (m_session.isEmpty())
        QSKIP("the recording did not run");
    QString session = m_session;
    if (fromCommandLine) {
        session = m_dir.filePath(QStringLiteral("command-line.lookahead"));
        QVERIFY(m_server.restart().isEmpty()); // PostgreSQL 15 empties shared buffers only so
        const CliResult recorded =
            test::recordQuery(m_server.conninfo(),
                              QStringLiteral("SELECT * FROM t WHERE a <= 10000 ORDER BY a DESC"),
                              {QStringLiteral("enable_bitmapscan=off"), QStringLiteral("enable_seqscan=off")},
                              {QStringLiteral("--save"), session})
                .run;
        QVERIFY2(recorded.exitCode == 0, qPrintable(recorded.out + recorded.err));
    }
    MainWindow window;
    window.resize(1280, 720);
    window.applyStartup(cliOptions({}));
    window.show();
    QCOMPARE(openSessionAndWait(window, session), QString());
    RunSetupPanel* panel = window.setupPanel();
    QVERIFY(!window.dashboard()->stale());
    QCOMPARE(panel->comparison(), Comparison::Observed);
    QVERIFY(!panel->showsPolicyA()); // A is the trace
    QCOMPARE(panel->policyBField()->currentText().toStdString(),
             window.controller().experiment().runs[1].policy);
    QVERIFY(!panel->explainPath().isEmpty());
    QVERIFY(QFileInfo::exists(panel->explainPath()));
    const std::vector<RunSummary> saved = window.controller().summaries();
    QVERIFY(!saved.at(0).serverExplain.empty());
    if (const QString dir = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS");
        !dir.isEmpty() && !fromCommandLine) {
        for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
            window.resize(size);
            QTRY_COMPARE(window.size(), size);
            QVERIFY(waitIdle(window));
            for (QCustomPlot* plot : window.findChildren<QCustomPlot*>())
                plot->replot();
            window.grab().save(
                dir + QStringLiteral("/reopened-recording-%1x%2.png").arg(size.width()).arg(size.height()));
            // The whole panel, also what scrolls out of view.
            panel->grab().save(
                dir +
                QStringLiteral("/reopened-recording-panel-%1x%2.png").arg(size.width()).arg(size.height()));
        }
    }
    // Run again as it stands: the server's same figures, the model's same misses, nothing changed.
    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(window));
    QVERIFY(!window.errorDialog());
    QCOMPARE(window.controller().summaries().at(0).serverExplain, saved.at(0).serverExplain);
    QCOMPARE(window.controller().summaries().at(1).misses, saved.at(1).misses);
    QVERIFY(!window.dashboard()->stale());
}

// A Bitmap Heap Scan's visits come from the server into the recording's work directory, removed when
// `lookahead record --save` ends: the session keeps them, and reopened, its model runs again on them
// with the same misses.
void TestGuiRecord::reopenedRecordingRunsOnItsKeptVisits() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString session = m_dir.filePath(QStringLiteral("bitmap.lookahead"));
    QVERIFY(m_server.restart().isEmpty());
    const CliResult recorded =
        test::recordQuery(m_server.conninfo(), QStringLiteral("SELECT count(pad) FROM t WHERE a <= 3000"),
                          {QStringLiteral("enable_indexscan=off"), QStringLiteral("enable_seqscan=off")},
                          {QStringLiteral("--save"), session})
            .run;
    QVERIFY2(recorded.exitCode == 0, qPrintable(recorded.out + recorded.err));
    MainWindow window;
    window.applyStartup(cliOptions({}));
    QCOMPARE(openSessionAndWait(window, session), QString());
    const Experiment& opened = window.controller().experiment();
    const QJsonArray recordedNodes = opened.recorded[QStringLiteral("nodes")].toArray();
    QCOMPARE(opened.recorded[QStringLiteral("relation")].toObject()[QStringLiteral("scan")].toString(),
             QStringLiteral("Bitmap Heap Scan"));
    QCOMPARE(opened.recorded[QStringLiteral("visits")].toObject()[QStringLiteral("source")].toString(),
             QStringLiteral("server"));
    // The visits the run read are the session's, in a file of the window's.
    const QString visits = QString::fromStdString(window.setupPanel()->config().blockList);
    QVERIFY2(QFileInfo::exists(visits) && !visits.contains(QStringLiteral("lookahead-record")),
             qPrintable(visits));
    const std::vector<RunSummary> saved = window.controller().summaries();
    QVERIFY(saved.at(1).misses > 0);

    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(window));
    QVERIFY2(!window.errorDialog(),
             qPrintable(window.errorDialog() ? window.errorDialog()->text() : QString()));
    QCOMPARE(window.controller().summaries().at(1).blocks, saved.at(1).blocks);
    QCOMPARE(window.controller().summaries().at(1).misses, saved.at(1).misses);
    QCOMPARE(window.controller().summaries().at(1).hits, saved.at(1).hits);
    // Run again, it is still the recording: its plan stays beside the plots.
    QCOMPARE(window.controller().experiment().recorded[QStringLiteral("nodes")].toArray(), recordedNodes);
    QVERIFY(!window.planPanel()->outline().empty());

    // `lookahead FILE.lookahead --node ID` chooses that node in the Plan tab once the plan is shown:
    // here the Bitmap Index Scan under the modelled Bitmap Heap Scan, which says why it is not modelled.
    std::int64_t bitmapIndex = -1;
    for (const QJsonValue& node : recordedNodes)
        if (node[QStringLiteral("type")].toString() == QLatin1String("Bitmap Index Scan"))
            bitmapIndex = node[QStringLiteral("node_id")].toInteger();
    QVERIFY(bitmapIndex >= 0);
    MainWindow chosen;
    QSignalSpy shown(chosen.sessions(), &SessionFiles::opened);
    chosen.applyStartup(cliOptions({session, QStringLiteral("--node"), QString::number(bitmapIndex)}));
    QCOMPARE(test::caught(shown, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(chosen));
    QCOMPARE(chosen.planPanel()->chosenNode(), bitmapIndex);
    QVERIFY2(chosen.planPanel()->details().contains(QStringLiteral("not modelled")),
             qPrintable(chosen.planPanel()->details()));
}

// A query with a syntax error: the server's "LINE 1: …" and the caret under it are set in a
// fixed-pitch font, so that the caret stands under the word the server points at.
void TestGuiRecord::syntaxErrorCaretStandsUnderTheError() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    MainWindow window;
    window.applyStartup(cliOptions({}));
    RecordDialog* dialog = openDialog(window, QStringLiteral("SELECT * FORM t WHERE a <= 10"));
    QVERIFY(dialog);
    QSignalSpy status(dialog, &RecordDialog::statusChanged);
    dialog->startRecording();
    QVERIFY(test::until(
        status, [&] { return dialog->status().startsWith(QStringLiteral("Could not record")); },
        kWindowTimeoutMs));
    const auto* label = dialog->findChild<QLabel*>(QStringLiteral("status"));
    QVERIFY(label);
    QCOMPARE(label->textFormat(), Qt::RichText);
    const QRegularExpressionMatch pre =
        QRegularExpression(QStringLiteral("<pre style=\"font-family: '([^']*)'[^\"]*\">([^<]*)</pre>"))
            .match(label->text());
    QVERIFY2(pre.hasMatch(), qPrintable(label->text()));
    QFont fixed(pre.captured(1));
    QVERIFY2(QFontInfo(fixed).fixedPitch(), qPrintable(pre.captured(1)));
    const QStringList lines =
        QTextDocumentFragment::fromHtml(pre.captured(0)).toPlainText().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(QStringLiteral("LINE 1: ")), qPrintable(lines[0]));
    QCOMPARE(lines[1].trimmed(), QStringLiteral("^"));
    // (the server shows the query it planned, after "EXPLAIN (… FORMAT JSON)": "FORM t" is the error)
    QCOMPARE(lines[1].indexOf(QLatin1Char('^')), lines[0].indexOf(QStringLiteral("FORM t")));
    if (const QString shots = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !shots.isEmpty())
        dialog->grab().save(shots + QStringLiteral("/record-syntax-error.png"));
    dialog->reject();
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
    QCOMPARE(m_server.sqlLogged(
                 QStringLiteral("SELECT count(*) FROM pg_extension WHERE extname = 'pg_buffercache'")),
             QStringLiteral("0"));
    QCOMPARE(m_server.sqlLogged(QStringLiteral(
                 "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")),
             QStringLiteral("1"));
    QSignalSpy closed(dialog, &QDialog::finished);
    dialog->reject(); // now it closes
    QCOMPARE(test::caught(closed, 1, kWindowTimeoutMs), 1);
    QVERIFY(!window.recordings()->dialog());
}

QTEST_MAIN(TestGuiRecord)
#include "tst_gui_record.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// An imported trace and the scan it traced, together in the window (issue 25): open the scan (a
// PostgreSQL index, a block list), import the trace, compare with a policy, Run: the observed reads
// beside the model of every visit, which saves and opens again with its setup panel. A start that
// fails leaves nothing marked as going, and the index dialog keeps what was typed.
#include "cli/cli_options.h"
#include "dashboard.h"
#include "gui/dialogs/dataset_picker.h"
#include "gui/dialogs/pg_index_dialog.h"
#include "gui/window/main_window.h"
#include "gui/window/run_setup_panel.h"
#include "model/summary_rows.h"
#include "pg_server.h"
#include "qcp.h"
#include "signal_waits.h"
#include "test_files.h"
#include "window_harness.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace la;

namespace {

using test::cliOptions;
using test::kWindowTimeoutMs;
using test::openSessionAndWait;
using test::waitIdle;

const QStringList kSmallRun = test::smallRun();

// Runs the built binary headless with `args`; returns its stderr if it failed, else nothing.
QString runBinary(const QStringList& args) {
    QProcess process;
    process.start(QStringLiteral(LOOKAHEAD_BINARY), QStringList{QStringLiteral("--headless")} + args);
    if (!process.waitForFinished(kWindowTimeoutMs) || process.exitCode() != 0)
        return QStringLiteral("lookahead %1: %2")
            .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(process.readAllStandardError()));
    return {};
}

// The line edit of the index dialog's field for option `name` (its tooltip starts with the option).
QLineEdit* dialogField(const PgIndexDialog& dialog, const QString& name) {
    for (QLineEdit* edit : dialog.findChildren<QLineEdit*>())
        if (edit->toolTip().startsWith(QStringLiteral("--") + name + QLatin1Char(':')))
            return edit;
    return nullptr;
}

// Cancels the index dialog (which closes it) and opens it again: the dialog it opened, or null when
// the cancelled one stayed.
PgIndexDialog* cancelAndReopen(MainWindow& window, PgIndexDialog* dialog) {
    QSignalSpy closed(dialog, &QDialog::finished);
    dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Cancel)->click();
    if (test::caught(closed, 1, kWindowTimeoutMs) != 1 || window.inputs()->pgIndexDialog())
        return nullptr;
    window.inputs()->openPgIndexDialog();
    return window.inputs()->pgIndexDialog();
}

bool namesAFlag(const QString& message) {
    return message.contains(QStringLiteral("--"));
}

} // namespace

class TestGuiObserved : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void indexScanAndTraceAreOneExperiment();
    void blockListAndTraceAreOneExperiment();
    void failedStartLeavesNothingGoing();
    void indexDialogKeepsWhatWasTyped();
    void explainAndBackendFromThePanel();
    void figuresThatDisagreeOpenWithABanner();

private:
    // Runs the window's experiment and waits until it is over and drawn; fails on any error dialog.
    void runAndCheck(MainWindow& window, std::uint64_t visits);
    // Saves the runs on screen to `path`, opens them in a new window and runs B against them.
    void saveReopenAndModelAgain(MainWindow& window, const QString& path, std::uint64_t visits);

    QTemporaryDir m_dir;
};

void TestGuiObserved::initTestCase() {
    LA_SKIP_FORK_UNDER_TSAN("runs the binary with QProcess, which TSan cannot follow through fork");
    la::test::useCleanTestSettings();
    QVERIFY(m_dir.isValid());
}

void TestGuiObserved::runAndCheck(MainWindow& window, std::uint64_t visits) {
    QSignalSpy failed(&window.controller(), &RunController::failed);
    QSignalSpy finished(&window.controller(), &RunController::finished);
    QSignalSpy notices(&window.controller(), &RunController::notice);
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(window));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    const std::vector<RunSummary> runs = window.controller().summaries();
    QCOMPARE(runs.size(), std::size_t(2));
    QCOMPARE(window.controller().experiment().comparison, Comparison::Observed);
    QVERIFY(window.controller().traces()[0]->observed());
    QVERIFY2(runs[1].error.empty(), runs[1].error.c_str());
    // The model visits every block the scan visited, each a hit or a miss; the misses are the blocks
    // the trace read (each once here), the other visits hits.
    QCOMPARE(runs[1].blocks, visits);
    QCOMPARE(runs[1].hits + runs[1].misses, visits);
    QVERIFY2(runs[1].misses == window.inputs()->importedTrace()->impliedBlocks().size(),
             qPrintable(QStringLiteral("%1 misses: %2")
                            .arg(runs[1].misses)
                            .arg(QString::fromStdString(runs[1].cacheFromTrace))));
    QVERIFY(!runs[1].cacheFromTrace.empty());
    for (const QList<QVariant>& notice : notices)
        QVERIFY2(!namesAFlag(notice.first().toString()), qPrintable(notice.first().toString()));
}

void TestGuiObserved::saveReopenAndModelAgain(MainWindow& window, const QString& path, std::uint64_t visits) {
    QCOMPARE(test::saveSessionAndWait(window, path), QString());
    const RunConfig live = window.setupPanel()->config();

    MainWindow reopened;
    QSignalSpy checked(reopened.inputs(), &InputOpeners::pgScanChecked);
    reopened.applyStartup(cliOptions({}));
    // The saved settings hold the index scan: its facts are read on a worker, which must end before
    // the session opens (an index read meanwhile is refused: another index is being read).
    if (reopened.setupPanel()->config().pg.active())
        QCOMPARE(test::caught(checked, 1, kWindowTimeoutMs), 1);
    checked.clear();
    QSignalSpy opened(reopened.sessions(), &SessionFiles::opened);
    reopened.sessions()->open(path);
    QCOMPARE(test::caught(opened, 1, kWindowTimeoutMs), 1);
    QCOMPARE(opened.first().at(1).toString(), QString());
    // The session's index scan is read again, as when it was opened.
    if (live.pg.active()) {
        QCOMPARE(test::caught(checked, 1, kWindowTimeoutMs), 1);
        QCOMPARE(checked.first().first().toString(), QString());
    }
    QVERIFY(waitIdle(reopened));
    // The setup panel is the one that ran: the trace, its relation, what the model visits.
    RunSetupPanel* panel = reopened.setupPanel();
    QVERIFY(panel->hasTrace());
    QVERIFY(reopened.inputs()->importedTrace());
    QCOMPARE(reopened.inputs()->importedTrace()->relation, window.inputs()->importedTrace()->relation);
    QCOMPARE(panel->comparison(), Comparison::Observed);
    QCOMPARE(panel->visitsFromScan(), window.setupPanel()->visitsFromScan());
    QCOMPARE(panel->config().pg.index, live.pg.index);
    QCOMPARE(panel->config().blockList, live.blockList);
    QCOMPARE(panel->config().comparePolicy, live.comparePolicy);
    // Modelled again without importing the trace again.
    QSignalSpy failed(&reopened.controller(), &RunController::failed);
    QSignalSpy finished(&reopened.controller(), &RunController::finished);
    QCOMPARE(reopened.sessions()->runAgainstBaseline(), QString());
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(reopened));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    QVERIFY2(!reopened.errorDialog(),
             reopened.errorDialog() ? qPrintable(reopened.errorDialog()->text()) : "");
    const std::vector<RunSummary> runs = reopened.controller().summaries();
    QCOMPARE(runs.size(), std::size_t(2));
    QVERIFY(reopened.controller().traces()[0]->observed());
    QCOMPARE(runs[1].blocks, visits);
}

// The sequence a user tries first: File → Open PostgreSQL index, File → Import trace of the same
// scan, compare with a policy, Run. Both runs finish side by side, the model on every heap visit of
// the index scan, and the pair saves.
void TestGuiObserved::indexScanAndTraceAreOneExperiment() {
    if (const QString why = test::PgServer::unavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    test::PgServer server;
    auto [heap, index, error] = server.startWithHashClusteredTable();
    QVERIFY2(error.isEmpty(), qPrintable(error));

    // The trace: Lookahead's own event CSV of the same index scan, with its visits counted.
    const QString csv = m_dir.filePath(QStringLiteral("index-scan.csv"));
    const QString json = m_dir.filePath(QStringLiteral("index-scan.json"));
    const QStringList scan{QStringLiteral("--pg-datadir"),   server.dataDir(),
                           QStringLiteral("--pg-index"),     index,
                           QStringLiteral("--pg-heap"),      heap,
                           QStringLiteral("--pg-key-range"), QStringLiteral("100:5000")};
    const QString ran = runBinary(scan + QStringList{QStringLiteral("--policy"), QStringLiteral("pg18"),
                                                     QStringLiteral("--trace-csv"), csv,
                                                     QStringLiteral("--summary-json"), json});
    QVERIFY2(ran.isEmpty(), qPrintable(ran));
    const auto visits =
        static_cast<std::uint64_t>(test::summaryRun(json)[QStringLiteral("blocks")].toInteger());
    QVERIFY(visits > 4000);

    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    const std::optional<QString> checked =
        test::openPgScanAndWait(window, test::withPgIndexScan(window.setupPanel()->config(), server.dataDir(),
                                                              index, heap, "100:5000"));
    QVERIFY(checked);
    QCOMPARE(*checked, QString());
    const std::optional<QString> imported = test::importTraceAndWait(window, csv);
    QVERIFY(imported);
    QCOMPARE(*imported, QString());
    QCOMPARE(window.setupPanel()->comparison(), Comparison::Observed);
    QVERIFY(window.setupPanel()->visitsFromScan()); // the index scan opened is what the trace traced
    // B: pg18, which reads a block visited again while its read is in flight once, as the traced
    // scan did (pg19's model reads it again: its misses then exceed the trace's reads).
    RunConfig withB = window.setupPanel()->config();
    withB.comparePolicy = "pg18";
    QCOMPARE(window.setupPanel()->setConfig(withB), QString());
    runAndCheck(window, visits);
    if (QTest::currentTestFailed())
        return;
    saveReopenAndModelAgain(window, m_dir.filePath(QStringLiteral("index-scan.lookahead")), visits);
}

// The same with a block list as the visits (no server needed): the model replays every line of it.
void TestGuiObserved::blockListAndTraceAreOneExperiment() {
    const QString csv = m_dir.filePath(QStringLiteral("seq.csv"));
    const QString ran =
        runBinary({QStringLiteral("--dataset"), QStringLiteral("seq"), QStringLiteral("--pattern-blocks"),
                   QStringLiteral("2048"), QStringLiteral("--policy"), QStringLiteral("pg18"),
                   QStringLiteral("--trace-csv"), csv});
    QVERIFY2(ran.isEmpty(), qPrintable(ran));
    // Every block, then the first 952 again: 3,000 visits of which the second pass may be hits.
    QByteArray lines;
    for (int block = 0; block < 2048; ++block)
        lines += QByteArray::number(block) + '\n';
    for (int block = 0; block < 952; ++block)
        lines += QByteArray::number(block) + '\n';
    const QString list = test::writeFile(m_dir.filePath(QStringLiteral("visits.txt")), lines);

    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    const std::optional<QString> imported = test::importTraceAndWait(window, csv);
    QVERIFY(imported);
    QCOMPARE(*imported, QString());
    QVERIFY(!window.setupPanel()->visitsFromScan()); // nothing else open: the trace's own reads
    window.inputs()->openBlockList(list);
    QVERIFY(window.setupPanel()->visitsFromScan());
    QVERIFY(window.setupPanel()->datasetPicker()->isEnabled());
    // A cache state left in the panel is not the model's: the trace gives it.
    RunConfig cached = window.setupPanel()->config();
    cached.prewarm = "all";
    QCOMPARE(window.setupPanel()->setConfig(cached), QString());
    runAndCheck(window, 3000);
    if (QTest::currentTestFailed())
        return;
    saveReopenAndModelAgain(window, m_dir.filePath(QStringLiteral("visits.lookahead")), 3000);
}

// Run B cannot start after A has run (its settings are refused in the worker): A stays on screen,
// B is no longer shown as going, the message names no flag, and Save and Export work.
void TestGuiObserved::failedStartLeavesNothingGoing() {
    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    Experiment experiment = makeExperiment(window.setupPanel()->config(), Comparison::Policy);
    QCOMPARE(experiment.runs.size(), std::size_t(2));
    RunConfig& b = experiment.runs[1].config;
    b.pg.index = "/nonexistent/16389";
    b.pg.heap = "/nonexistent/16384";
    b.blockList = "/nonexistent/blocks.txt";
    QSignalSpy failed(&window.controller(), &RunController::failed);
    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.controller().start(experiment);
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(window));
    QCOMPARE(failed.count(), 1);
    const QString message = failed.first().first().toString();
    QVERIFY2(message.startsWith(QStringLiteral("pg19 did not run: ")), qPrintable(message));
    QVERIFY2(!namesAFlag(message), qPrintable(message));
    QVERIFY(window.errorDialog());
    QVERIFY2(!namesAFlag(window.errorDialog()->text()), qPrintable(window.errorDialog()->text()));
    QVERIFY(!window.controller().running());
    QVERIFY(window.setupPanel()->runButton()->isEnabled());
    QCOMPARE(window.controller().traces().size(), std::size_t(1));
    QCOMPARE(window.dashboard()->runs().size(), std::size_t(1));
    QCOMPARE(window.controller().summaries().front().blocks, std::uint64_t(8192));

    QSignalSpy saved(window.sessions(), &SessionFiles::saved);
    QCOMPARE(window.sessions()->save(m_dir.filePath(QStringLiteral("a-only.lookahead"))), QString());
    QCOMPARE(test::caught(saved, 1, kWindowTimeoutMs), 1);
    QCOMPARE(saved.first().at(1).toString(), QString());
    QSignalSpy exported(window.exports(), &ScreenExports::traceCsvFinished);
    QCOMPARE(window.exports()->exportTraceCsv(m_dir.filePath(QStringLiteral("a-only.csv"))), QString());
    QCOMPARE(test::caught(exported, 1, kWindowTimeoutMs), 1);
    QCOMPARE(exported.first().at(1).toString(), QString());
    PlotExportRequest png;
    png.path = m_dir.filePath(QStringLiteral("a-only.png"));
    QCOMPARE(window.exports()->exportPlots(png), QString());
}

// An index that cannot be read is said in the dialog, which stays open with what was typed; what
// was typed comes back at the next opening, per data directory.
void TestGuiObserved::indexDialogKeepsWhatWasTyped() {
    const QString first = m_dir.filePath(QStringLiteral("datadir-a"));
    const QString second = m_dir.filePath(QStringLiteral("datadir-b"));
    QVERIFY(QDir().mkpath(first + QStringLiteral("/base/5")));
    QVERIFY(QDir().mkpath(second));
    test::writeFile(first + QStringLiteral("/base/5/16389"), QByteArray(8192, '\x7f'));
    test::writeFile(first + QStringLiteral("/base/5/16384"), QByteArray(8192, '\0'));

    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    window.inputs()->openPgIndexDialog();
    PgIndexDialog* dialog = window.inputs()->pgIndexDialog();
    QVERIFY(dialog);
    dialogField(*dialog, QStringLiteral("pg-datadir"))->setText(first);
    dialogField(*dialog, QStringLiteral("pg-index"))->setText(QStringLiteral("base/5/16389"));
    dialogField(*dialog, QStringLiteral("pg-heap"))->setText(QStringLiteral("base/5/16384"));
    dialogField(*dialog, QStringLiteral("pg-key-range"))->setText(QStringLiteral("10:20"));
    QSignalSpy checked(window.inputs(), &InputOpeners::pgScanChecked);
    dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Open)->click();
    QCOMPARE(test::caught(checked, 1, kWindowTimeoutMs), 1);
    // Not a btree: said in the dialog, in the window's words, with every field as typed.
    QVERIFY(!checked.first().first().toString().isEmpty());
    QVERIFY(dialog->isVisible());
    QVERIFY2(dialog->error().contains(QStringLiteral("16389")), qPrintable(dialog->error()));
    QVERIFY2(!namesAFlag(dialog->error()), qPrintable(dialog->error()));
    QVERIFY(!window.errorDialog());
    QCOMPARE(dialogField(*dialog, QStringLiteral("pg-index"))->text(), QStringLiteral("base/5/16389"));
    QCOMPARE(dialogField(*dialog, QStringLiteral("pg-key-range"))->text(), QStringLiteral("10:20"));
    QVERIFY(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Open)->isEnabled());
    QVERIFY(window.setupPanel()->config().pg.index.empty()); // the panel is left as it was
    // The status bar says how the reading ended, not that it is still reading.
    const QString status = window.statusBar()->currentMessage();
    QVERIFY2(status.startsWith(QStringLiteral("Cannot scan this index: ")) &&
                 !status.contains(QStringLiteral("Reading the index")),
             qPrintable(status));
    // However long the error, the dialog keeps its height (the error scrolls in a few lines): a long
    // one grew it past the screen and pushed its header out of view.
    const int height = dialog->sizeHint().height();
    QStringList lines;
    for (int line = 0; line < 40; ++line)
        lines << QStringLiteral("line %1 of a long error").arg(line);
    dialog->checked(lines.join(QLatin1Char('\n')));
    QCOMPARE(dialog->sizeHint().height(), height);
    QVERIFY2(dialog->error().contains(QStringLiteral("line 39 of a long error")),
             qPrintable(dialog->error()));
    const QPlainTextEdit* error = dialog->findChild<QPlainTextEdit*>();
    QVERIFY(error && error->isVisible());
    QTRY_VERIFY(error->verticalScrollBar()->isVisible() && error->verticalScrollBar()->maximum() > 0);
    if (const QString shots = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !shots.isEmpty())
        dialog->grab().save(shots + QStringLiteral("/index-dialog-error.png"));

    // The next opening shows it again; another data directory keeps its own.
    dialog = cancelAndReopen(window, dialog);
    QVERIFY2(dialog, "Cancel did not close the index dialog, or it did not open again");
    QCOMPARE(dialogField(*dialog, QStringLiteral("pg-datadir"))->text(), first);
    QCOMPARE(dialogField(*dialog, QStringLiteral("pg-index"))->text(), QStringLiteral("base/5/16389"));
    QCOMPARE(dialogField(*dialog, QStringLiteral("pg-key-range"))->text(), QStringLiteral("10:20"));
    dialogField(*dialog, QStringLiteral("pg-datadir"))->setText(second);
    dialogField(*dialog, QStringLiteral("pg-index"))->setText(QStringLiteral("base/1/2"));
    dialog = cancelAndReopen(window, dialog);
    QVERIFY2(dialog, "Cancel did not close the index dialog, or it did not open again");
    QCOMPARE(dialogField(*dialog, QStringLiteral("pg-index"))->text(), QStringLiteral("base/1/2"));
    QLineEdit* dataDir = dialogField(*dialog, QStringLiteral("pg-datadir"));
    dataDir->setText(first);
    emit dataDir->editingFinished();
    QCOMPARE(dialogField(*dialog, QStringLiteral("pg-index"))->text(), QStringLiteral("base/5/16389"));
    QCOMPARE(dialogField(*dialog, QStringLiteral("pg-key-range"))->text(), QStringLiteral("10:20"));
}

// A real PostgreSQL 19 trace (I/O workers and the backend) with its visits and its EXPLAIN, all
// given in the panel: the backend's pid chooses whose reads are waits, EXPLAIN's own waits win, and
// the server's figures stand beside the model's in the summary table and in the saved session.
void TestGuiObserved::explainAndBackendFromThePanel() {
    const QString dir = QStringLiteral(LOOKAHEAD_SHARED_FIXTURES) +
                        QStringLiteral("/pg19-io-workers/seq-random-6pct-uncached");
    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    RunSetupPanel* panel = window.setupPanel();
    panel->setBackendPid(14309);
    panel->setExplainPath(dir + QStringLiteral("/explain.txt"));
    const std::optional<QString> imported =
        test::importTraceAndWait(window, dir + QStringLiteral("/io-workers.strace"));
    QVERIFY(imported);
    QCOMPARE(*imported, QString());
    QCOMPARE(window.inputs()->importedTrace()->backend, std::optional<std::uint32_t>(14309));
    window.inputs()->openBlockList(dir + QStringLiteral("/blocks.txt"));
    runAndCheck(window, 16384);
    if (QTest::currentTestFailed())
        return;
    const std::vector<RunSummary> runs = window.controller().summaries();
    QCOMPARE(runs[0].waits, 114u); // EXPLAIN's I/O waits=, not the backend's one read
    QCOMPARE(runs[1].misses, 983u);
    const std::vector<SummaryRow> rows = summaryRows({&runs[0], &runs[1]});
    const auto row = std::find_if(rows.begin(), rows.end(), [](const SummaryRow& r) {
        return r.label == QStringLiteral("PostgreSQL's EXPLAIN");
    });
    QVERIFY(row != rows.end());
    QVERIFY2(row->values[0].startsWith(QStringLiteral("Seq Scan: shared hit=15401 read=983")),
             qPrintable(row->values[0]));
    QVERIFY2(row->values[0].contains(QStringLiteral("I/O count=923 waits=114")), qPrintable(row->values[0]));
    QCOMPARE(row->values[1], QStringLiteral("shared hit=15401 read=983 (its hits and misses)"));

    const QString path = m_dir.filePath(QStringLiteral("explain.lookahead"));
    QSignalSpy saved(window.sessions(), &SessionFiles::saved);
    QCOMPARE(window.sessions()->save(path), QString());
    QCOMPARE(test::caught(saved, 1, kWindowTimeoutMs), 1);
    MainWindow reopened;
    reopened.applyStartup(cliOptions({}));
    QCOMPARE(openSessionAndWait(reopened, path), QString());
    QCOMPARE(reopened.controller().summaries().at(0).serverExplain, runs[0].serverExplain);
    QCOMPARE(reopened.controller().summaries().at(0).waits, 114u);
    // Both windows' titles name the session they show.
    QCOMPARE(window.windowTitle(), QStringLiteral("explain.lookahead"));
    QCOMPARE(reopened.windowTitle(), QStringLiteral("explain.lookahead"));
}

// The EXPLAIN of another cache state (2,048 blocks read where the traced scan read 983): the model on
// the scan's visits cannot agree with it, and the window opens with that, in a banner above the
// verdict and in the status bar, naming the counts and the likely cause.
void TestGuiObserved::figuresThatDisagreeOpenWithABanner() {
    const QString fixtures = QStringLiteral(LOOKAHEAD_SHARED_FIXTURES);
    const QString dir = fixtures + QStringLiteral("/pg19-io-workers/seq-random-6pct-uncached");
    MainWindow window;
    window.resize(1400, 900);
    window.applyStartup(cliOptions(kSmallRun));
    window.show();
    window.setupPanel()->setExplainPath(fixtures +
                                        QStringLiteral("/pg19-calibration/K1/sync/r1/explain.txt"));
    QSignalSpy imported(window.inputs(), &InputOpeners::traceImported);
    window.inputs()->importTraceFile(dir + QStringLiteral("/io-workers.strace"));
    QCOMPARE(test::caught(imported, 1, kWindowTimeoutMs), 1);
    QCOMPARE(imported.first().first().toString(), QString());
    window.inputs()->openBlockList(dir + QStringLiteral("/blocks.txt"));
    runAndCheck(window, 16384);
    if (QTest::currentTestFailed())
        return;
    const QString banner = window.dashboard()->reconciliation();
    QVERIFY2(
        banner.startsWith(QStringLiteral("FIGURES DISAGREE: the model missed 983 blocks of t, PostgreSQL "
                                         "read 2,048 (EXPLAIN's shared read), the trace shows 983")),
        qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("likely cause: ")), qPrintable(banner));
    auto* shown = window.dashboard()->findChild<QLabel*>(QStringLiteral("reconciliationBanner"));
    QVERIFY(shown && shown->isVisible());
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("FIGURES DISAGREE")),
             qPrintable(window.statusBar()->currentMessage()));
    // The import's notes are listed too, as the command line prints them.
    QVERIFY2(!window.dashboard()->notes().filter(QStringLiteral("merged the reads of")).isEmpty(),
             qPrintable(window.dashboard()->notes().join(QLatin1Char('\n'))));
    if (const QString shots = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !shots.isEmpty()) {
        for (QCustomPlot* plot : window.findChildren<QCustomPlot*>())
            plot->replot();
        window.grab().save(shots + QStringLiteral("/reconciliation-banner.png"));
    }
}

QTEST_MAIN(TestGuiObserved)
#include "tst_gui_observed.moc"

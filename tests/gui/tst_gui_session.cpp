// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions in the window, offscreen: Save run writes what the CLI reads back, Open shows the saved
// runs with the live run's pixels and summary, a saved A runs beside a new live B (Run B against this
// baseline), Open Recent remembers them, a bad file ends in an error dialog with the window usable,
// `lookahead FILE.lookahead` opens one.
#include "cli/cli_options.h"
#include "cli_process.h"
#include "dashboard.h"
#include "distance_plot.h"
#include "experiment/session_io.h"
#include "gui/window/main_window.h"
#include "gui/window/run_setup_panel.h"
#include "signal_waits.h"
#include "test_files.h"
#include "window_harness.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace la;

namespace {

using test::cliOptions;
using test::kWindowTimeoutMs;
using test::openSessionAndWait;
using test::readJson;
using test::waitIdle;

const QStringList kSmallRun = test::smallRun();

} // namespace

class TestGuiSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void saveThenOpen();
    void badSessionShowsError();
    void commandLineFileOpens();
    void resetsReopenAsMarks();
    void keptListsRunAgain();
    void keptListsWriteWithProgressAndCancel();

private:
    QTemporaryDir m_dir;
    QString m_saved;
};

void TestGuiSession::initTestCase() {
    LA_SKIP_FORK_UNDER_TSAN("runs the binary with QProcess, which TSan cannot follow through fork");
    la::test::useCleanTestSettings();
    QVERIFY(m_dir.isValid());
    m_saved = m_dir.filePath(QStringLiteral("window.lookahead"));
}

void TestGuiSession::saveThenOpen() {
    MainWindow live;
    live.resize(1400, 1000);
    QSignalSpy finished(&live.controller(), &RunController::finished);
    live.applyStartup(cliOptions(kSmallRun));
    live.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(live));
    QSignalSpy saved(live.sessions(), &SessionFiles::saved);
    QCOMPARE(live.sessions()->save(m_saved), QString());
    QCOMPARE(test::caught(saved, 1, kWindowTimeoutMs), 1);
    QCOMPARE(saved.first().at(1).toString(), QString());
    const QImage liveImage = live.dashboard()->renderImage(QSize(1200, 800), 1.0, live.caption());
    const QString liveJson = m_dir.filePath(QStringLiteral("live.json"));
    QCOMPARE(live.exports()->exportSummaryJson(liveJson), QString());

    // The CLI reads what the window saved: the same runs, now with the provenance.
    QProcess cli;
    const QString cliJson = m_dir.filePath(QStringLiteral("cli.json"));
    cli.start(QStringLiteral(LOOKAHEAD_BINARY), {QStringLiteral("--headless"), QStringLiteral("--open"),
                                                 m_saved, QStringLiteral("--summary-json"), cliJson});
    QVERIFY(cli.waitForFinished(kWindowTimeoutMs));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject fromCli = readJson(cliJson);
    QCOMPARE(fromCli[QStringLiteral("runs")], readJson(liveJson)[QStringLiteral("runs")]);
    QCOMPARE(fromCli[QStringLiteral("provenance")].toObject()[QStringLiteral("command_line")].toString(),
             QStringLiteral("lookahead (window)"));

    // Another window opens it: the same pixels, caption and summary as the live run.
    MainWindow reopened;
    reopened.resize(1400, 1000);
    reopened.applyStartup(cliOptions({}));
    QCOMPARE(openSessionAndWait(reopened, m_saved), QString());
    QCOMPARE(reopened.controller().traces().size(), std::size_t(2));
    QCOMPARE(reopened.caption(), live.caption());
    QCOMPARE(reopened.dashboard()->verdict(), live.dashboard()->verdict());
    const QImage image = reopened.dashboard()->renderImage(QSize(1200, 800), 1.0, reopened.caption());
    QVERIFY(image == liveImage);
    // The panel holds A's settings, so Run runs the same experiment again: not stale.
    QCOMPARE(reopened.setupPanel()->config().policy, std::string("pg18"));
    QVERIFY(!reopened.dashboard()->stale());
    // Run B against this baseline: the saved A beside a new live B with the same settings. The
    // simulated device is deterministic, so B comes out as it did live: the same verdict and pixels.
    QSignalSpy again(&reopened.controller(), &RunController::finished);
    QCOMPARE(reopened.sessions()->runAgainstBaseline(), QString());
    QCOMPARE(test::caught(again, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(reopened));
    QCOMPARE(again.first().first().toBool(), false);
    QCOMPARE(reopened.controller().summaries().size(), std::size_t(2));
    QCOMPARE(reopened.dashboard()->verdict(), live.dashboard()->verdict());
    QVERIFY(reopened.dashboard()->renderImage(QSize(1200, 800), 1.0, reopened.caption()) == liveImage);
    // The pair saves as a new session: the saved A (its events kept again) and the new B, the runs the
    // CLI then reads back equal to the live pair's.
    const QString pair = m_dir.filePath(QStringLiteral("pair.lookahead"));
    QSignalSpy pairSaved(reopened.sessions(), &SessionFiles::saved);
    QCOMPARE(reopened.sessions()->save(pair), QString());
    QCOMPARE(test::caught(pairSaved, 1, kWindowTimeoutMs), 1);
    QCOMPARE(pairSaved.first().at(1).toString(), QString());
    const QString pairJson = m_dir.filePath(QStringLiteral("pair.json"));
    QProcess pairCli;
    pairCli.start(QStringLiteral(LOOKAHEAD_BINARY), {QStringLiteral("--headless"), QStringLiteral("--open"),
                                                     pair, QStringLiteral("--summary-json"), pairJson});
    QVERIFY(pairCli.waitForFinished(kWindowTimeoutMs));
    QCOMPARE(pairCli.exitCode(), 0);
    QCOMPARE(readJson(pairJson)[QStringLiteral("runs")], readJson(liveJson)[QStringLiteral("runs")]);
    // Without a session on screen there is no baseline.
    QVERIFY(!reopened.sessions()->runAgainstBaseline().isEmpty());
    QCOMPARE(openSessionAndWait(reopened, m_saved), QString());
    // Saving runs that came from a file says where they are.
    QVERIFY(reopened.sessions()->save(m_dir.filePath(QStringLiteral("again.lookahead"))).contains(m_saved));
    // Open Recent remembers it.
    QCOMPARE(QSettings().value(QStringLiteral("session/recent")).toStringList().value(0),
             QFileInfo(m_saved).absoluteFilePath());
}

void TestGuiSession::badSessionShowsError() {
    const QString bad =
        test::writeFile(m_dir.filePath(QStringLiteral("bad.lookahead")), "not a session at all\n");
    MainWindow window;
    window.applyStartup(cliOptions({}));
    QSignalSpy opened(window.sessions(), &SessionFiles::opened);
    window.sessions()->open(bad);
    QCOMPARE(test::caught(opened, 1, kWindowTimeoutMs), 1);
    const QString error = opened.first().at(1).toString();
    QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("not a Lookahead session")),
             qPrintable(error));
    test::checkSessionRefused(window, bad);
}

void TestGuiSession::commandLineFileOpens() {
    QVERIFY2(QFileInfo::exists(m_saved), "saveThenOpen saves the session");
    const CliOptions given = cliOptions({m_saved});
    QCOMPARE(QString::fromStdString(given.open), m_saved);
    MainWindow window;
    QSignalSpy opened(window.sessions(), &SessionFiles::opened);
    window.applyStartup(given);
    QCOMPARE(test::caught(opened, 1, kWindowTimeoutMs), 1);
    QCOMPARE(opened.first().at(1).toString(), QString());
    QCOMPARE(window.controller().summaries().size(), std::size_t(2));
}

// A run that resets (an A/B, B keeping the distance across them) saved and opened again: the distance
// pane marks the same resets, the run's own count, and draws the same pixels.
void TestGuiSession::resetsReopenAsMarks() {
    const QString saved = m_dir.filePath(QStringLiteral("resets.lookahead"));
    MainWindow live;
    live.resize(1400, 1000);
    QSignalSpy finished(&live.controller(), &RunController::finished);
    live.applyStartup(cliOptions({QStringLiteral("--dataset"), QStringLiteral("alternating"),
                                  QStringLiteral("--pattern-blocks"), QStringLiteral("8192"),
                                  QStringLiteral("--reset-every"), QStringLiteral("1000"),
                                  QStringLiteral("--compare-restore-after-reset")}));
    live.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(live));
    const auto* liveDistance = qobject_cast<DistancePlot*>(live.dashboard()->views()[0]);
    QVERIFY(liveDistance);
    QCOMPARE(live.controller().summaries().size(), std::size_t(2));
    for (std::size_t run = 0; run < 2; ++run) {
        QCOMPARE(live.controller().summaries()[run].resets, std::uint64_t(8));
        QCOMPARE(liveDistance->resetsMarked(run), std::uint64_t(8));
    }
    const QImage liveImage = live.dashboard()->renderImage(QSize(1200, 800), 1.0, live.caption());
    QCOMPARE(test::saveSessionAndWait(live, saved), QString());

    MainWindow reopened;
    reopened.resize(1400, 1000);
    reopened.applyStartup(cliOptions({}));
    QCOMPARE(openSessionAndWait(reopened, saved), QString());
    const auto* distance = qobject_cast<DistancePlot*>(reopened.dashboard()->views()[0]);
    QVERIFY(distance);
    for (std::size_t run = 0; run < 2; ++run) {
        QCOMPARE(distance->resetsMarked(run), std::uint64_t(8));
        QCOMPARE(distance->resetCaption(run), QStringLiteral("8 resets (rescans)"));
    }
    QVERIFY(reopened.dashboard()->renderImage(QSize(1200, 800), 1.0, reopened.caption()) == liveImage);
}

// A session keeps the block list and prewarm list its runs read (a recording's work files, gone once it
// ends): reopened after one changed and the other was deleted, the window runs A again on the kept
// bytes, with A's figures; while they are unchanged, the runs name the user's own files.
// A kept list that was altered is refused, naming it.
void TestGuiSession::keptListsRunAgain() {
    const QString lists = m_dir.filePath(QStringLiteral("lists"));
    QVERIFY(QDir().mkpath(lists));
    const QByteArray blocks = test::rescannedVisits(200, 6, 3000), cached = test::blockLines(0, 3000, 3);
    const QString blockList = test::writeFile(lists + QStringLiteral("/visits.txt"), blocks);
    const QString prewarmList = test::writeFile(lists + QStringLiteral("/cached.txt"), cached);
    const QString saved = m_dir.filePath(QStringLiteral("kept.lookahead"));
    const test::CliResult run = test::runLookahead(
        {QStringLiteral("--headless"), QStringLiteral("--io"), QStringLiteral("sim"),
         QStringLiteral("--blocks"), blockList, QStringLiteral("--relation-blocks"), QStringLiteral("3000"),
         QStringLiteral("--prewarm"), QStringLiteral("list:") + prewarmList, QStringLiteral("--policy"),
         QStringLiteral("pg19"), QStringLiteral("--compare-policy"), QStringLiteral("pg18"),
         QStringLiteral("--save"), saved},
        kWindowTimeoutMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    {
        // Still there and unchanged: the run keeps naming the user's own lists.
        MainWindow same;
        same.applyStartup(cliOptions({}));
        QCOMPARE(openSessionAndWait(same, saved), QString());
        QCOMPARE(QString::fromStdString(same.setupPanel()->config().blockList), blockList);
        QCOMPARE(QString::fromStdString(same.setupPanel()->config().prewarm),
                 QStringLiteral("list:") + prewarmList);
    }
    // The visits changed since, the cached blocks gone: the kept bytes stand in for both.
    test::writeFile(blockList, blocks + "7\n");
    QVERIFY(QFile::remove(prewarmList));

    MainWindow reopened;
    reopened.applyStartup(cliOptions({}));
    QCOMPARE(openSessionAndWait(reopened, saved), QString());
    const RunSummary savedA = reopened.controller().summaries().front();
    QVERIFY(savedA.resets == 199 && savedA.hits > 0 && savedA.misses > 0);
    const RunConfig config = reopened.setupPanel()->config();
    const QString keptBlocks = QString::fromStdString(config.blockList);
    QVERIFY2(keptBlocks != blockList && QFileInfo::exists(keptBlocks) &&
                 keptBlocks.endsWith(QStringLiteral("/visits.txt")),
             qPrintable(keptBlocks));
    QCOMPARE(test::readFile(keptBlocks), blocks);
    const QString prewarm = QString::fromStdString(config.prewarm);
    QVERIFY2(prewarm.startsWith(QStringLiteral("list:")), qPrintable(prewarm));
    QCOMPARE(test::readFile(prewarm.mid(5)), cached);
    // The field shows the end of that long path; its tooltip holds the whole.
    auto* prewarmField = reopened.setupPanel()->findChild<QComboBox*>(QStringLiteral("prewarm"));
    QVERIFY(prewarmField && prewarmField->toolTip().endsWith(QStringLiteral("Now: ") + prewarm));

    QSignalSpy finished(&reopened.controller(), &RunController::finished);
    reopened.setupPanel()->setComparison(Comparison::None);
    reopened.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(!reopened.errorDialog());
    const RunSummary again = reopened.controller().summaries().front();
    QCOMPARE(again.blocks, savedA.blocks);
    QCOMPARE(again.hits, savedA.hits);
    QCOMPARE(again.misses, savedA.misses);
    QCOMPARE(again.resets, savedA.resets);
    QCOMPARE(again.ios, savedA.ios);

    // Run B against this baseline opens the session again; the pair it saves keeps A's lists too.
    MainWindow baseline;
    baseline.applyStartup(cliOptions({}));
    QCOMPARE(openSessionAndWait(baseline, saved), QString());
    QSignalSpy baselineRun(&baseline.controller(), &RunController::finished);
    QCOMPARE(baseline.sessions()->runAgainstBaseline(), QString());
    QCOMPARE(test::caught(baselineRun, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(baseline));
    const QString pair = m_dir.filePath(QStringLiteral("kept-pair.lookahead"));
    QCOMPARE(test::saveSessionAndWait(baseline, pair), QString());
    MainWindow pairOpened;
    pairOpened.applyStartup(cliOptions({}));
    QCOMPARE(openSessionAndWait(pairOpened, pair), QString());
    QCOMPARE(test::readFile(QString::fromStdString(pairOpened.setupPanel()->config().blockList)), blocks);

    // One byte of the kept visits changed: the session is refused, naming what was altered.
    const QString altered = m_dir.filePath(QStringLiteral("altered.lookahead"));
    QVERIFY(QFile::copy(saved, altered));
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(QFile::encodeName(altered).constData(), &db), SQLITE_OK);
    const int rc =
        sqlite3_exec(db,
                     "UPDATE run_files SET data = CAST(replace(CAST(data AS TEXT), '5', '6') AS BLOB) "
                     "WHERE role = 'blocks'",
                     nullptr, nullptr, nullptr);
    sqlite3_close(db);
    QCOMPARE(rc, SQLITE_OK);
    MainWindow refused;
    refused.applyStartup(cliOptions({}));
    const QString error = openSessionAndWait(refused, altered);
    QVERIFY2(error.contains(QStringLiteral("run 0's kept blocks file is cut, altered or out of order")),
             qPrintable(error));
}

// A kept list may be 2 GiB: written back chunk by chunk, with progress, and cancellable between chunks.
void TestGuiSession::keptListsWriteWithProgressAndCancel() {
    QByteArray blocks;
    for (qint64 visit = 0; visit < 600'000; ++visit)
        blocks += QByteArray::number(visit * 7919 % 1'000'000) + '\n';
    QVERIFY(blocks.size() > 3 * (1 << 20)); // several chunks of 1 MiB
    const QString blockList = test::writeFile(m_dir.filePath(QStringLiteral("large-visits.txt")), blocks);
    const QString saved = m_dir.filePath(QStringLiteral("large-kept.lookahead"));
    const test::CliResult run =
        test::runLookahead({QStringLiteral("--headless"), QStringLiteral("--io"), QStringLiteral("sim"),
                            QStringLiteral("--blocks"), blockList, QStringLiteral("--relation-blocks"),
                            QStringLiteral("1000000"), QStringLiteral("--save"), saved},
                           kWindowTimeoutMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(QFile::remove(blockList));

    // Cancelled after the first chunk: the runs still name the list as saved.
    {
        OpenedSession session = openSession(saved.toStdString());
        QCOMPARE(session.reader->runFileBytes(), std::uint64_t(blocks.size()));
        QTemporaryDir dir;
        std::atomic<bool> cancel{false};
        int calls = 0;
        const std::string error =
            keepRunFiles(session, dir.path(), &cancel, [&](std::uint64_t, std::uint64_t) {
                ++calls;
                cancel = true;
            });
        QCOMPARE(error, std::string("cancelled"));
        QCOMPARE(calls, 1);
        QCOMPARE(QString::fromStdString(session.experiment.runs.front().config.blockList), blockList);
    }
    // Let run: progress climbs chunk by chunk to the whole, and the run names the kept copy.
    OpenedSession session = openSession(saved.toStdString());
    QTemporaryDir dir;
    std::vector<std::uint64_t> done;
    QCOMPARE(keepRunFiles(session, dir.path(), nullptr,
                          [&](std::uint64_t bytes, std::uint64_t total) {
                              QCOMPARE(total, std::uint64_t(blocks.size()));
                              done.push_back(bytes);
                          }),
             std::string());
    QCOMPARE(done.size(), std::size_t(blocks.size() / (1 << 20) + 1));
    QVERIFY(std::is_sorted(done.begin(), done.end()));
    QCOMPARE(done.back(), std::uint64_t(blocks.size()));
    const QString kept = QString::fromStdString(session.experiment.runs.front().config.blockList);
    QVERIFY2(kept.startsWith(dir.path()), qPrintable(kept));
    QCOMPARE(test::readFile(kept), blocks);

    // The window's open writes it back the same way.
    MainWindow opened;
    opened.applyStartup(cliOptions({}));
    QCOMPARE(openSessionAndWait(opened, saved), QString());
    QCOMPARE(test::readFile(QString::fromStdString(opened.setupPanel()->config().blockList)), blocks);
}

QTEST_MAIN(TestGuiSession)
#include "tst_gui_session.moc"

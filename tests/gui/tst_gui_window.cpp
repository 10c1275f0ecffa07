// SPDX-License-Identifier: GPL-3.0-or-later
// The window, offscreen: it builds, a run fills every plot, Stop and closing mid-run are clean,
// exports have the requested size and real content, the headless export draws the same pixels, and
// bad input ends in an error dialog with the window still usable.
#include "cli/cli_options.h"
#include "dashboard.h"
#include "export_parsers.h"
#include "gui/controls/dataset_cache_view.h"
#include "gui/dialogs/dataset_picker.h"
#include "gui/help/docs_viewer.h"
#include "gui/help/documentation.h"
#include "gui/help/help_menu.h"
#include "gui/window/main_window.h"
#include "gui/window/run_setup_panel.h"
#include "hostile_session.h"
#include "pg_server.h"
#include "plot_view.h"
#include "run_options.h"
#include "signal_waits.h"
#include "summary_panel.h"
#include "test_files.h"
#include "window_harness.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFontInfo>
#include <QFontMetrics>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>
#include <QXmlStreamReader>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <set>

using namespace la;

namespace {

using test::cliOptions;
using test::kWindowTimeoutMs;
using test::runToEnd;
using test::waitIdle;
using test::writeFile;

const QStringList kSmallRun = test::smallRun();

RunConfig longRun() {
    RunConfig config = cliOptions({}).run;
    config.dataset.name = "seq";
    config.dataset.blocks = 200'000'000;
    return config;
}

// Distinct colours inside `area`: a blank plot area has one or two (background, grid).
int distinctColours(const QImage& image, const QRect& area) {
    std::set<QRgb> colours;
    // Every pixel: a diagonal one pixel wide is all a raster may draw.
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

// Share of non-white pixels inside `area`.
double inkShare(const QImage& image, const QRect& area) {
    int ink = 0, all = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            ++all;
            ink += image.pixel(x, y) != qRgb(255, 255, 255);
        }
    return static_cast<double>(ink) / all;
}

// Hovering somewhere over the pane gives a tooltip.
bool anyTooltip(const PlotView* view, const QRect& area) {
    for (int y = area.top(); y <= area.bottom(); y += 3)
        for (int x = area.left(); x <= area.right(); x += 7)
            if (!view->tooltipAt(QPoint(x, y)).isEmpty())
                return true;
    return false;
}

} // namespace

class TestGuiWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void fontsRenderText();
    void windowBuildsWithADefaultDataset();
    void anotherPolicyOffersOne();
    void helpListsShortcutsAndDocs();
    void documentationOpensInItsOwnViewer();
    void policyBNamesWhatBIs();
    void runUpdatesEveryPlot();
    void stopMidRunIsClean();
    void closingMidRunIsClean();
    void exportedPngHasSizeAndContent_data();
    void exportedPngHasSizeAndContent();
    void headlessExportEqualsWindowExport();
    void unreadableBlockListShowsErrorAndStaysUsable();
    void malformedBlockListShowsError();
    void blockListGreysTheDatasetItReplaces();
    void unknownDatasetShowsError();
    void exportOntoAnInputIsRefused();
    void exportWriteErrorSaysWhy();
    void exportedCsvHoldsTheRunsOnScreen();
    void failedStartKeepsThePreviousResults();
    void badFilesAreRefusedWhenChosen();
    void fifoIsRefusedAsEveryInput();
    void badFileOnTheCommandLineIsRefused();
    void vectorExportsAreDrawingsWithMetadata();
    void headlessWritesEveryPlotFormat();
    void exportTextsAreEscapedForTheirFormat();
    void advancedSettingsReachTheRun();
    void wheelScrollsThePanelNotItsFields();
    void datasetCacheShowsItsSizeAndClearsOnlyOurFiles();
    void importedTraceIsShownBesideItsModel();
    void postgresIndexScanFromTheWindow();

private:
    QString makeFile(const QString& name, qint64 bytes);
    QTemporaryDir m_dir;
};

void TestGuiWindow::initTestCase() {
    la::test::useCleanTestSettings();
    QVERIFY(m_dir.isValid());
}

// Missing fonts draw every label as empty boxes without any warning; only a glyph check catches it.
void TestGuiWindow::fontsRenderText() {
    QVERIFY(!QFontInfo(QFont(QStringLiteral("sans"))).family().isEmpty());
    QVERIFY(QFontMetrics(QFont(QStringLiteral("sans"))).inFont(QChar(QLatin1Char('A'))));
}

void TestGuiWindow::windowBuildsWithADefaultDataset() {
    MainWindow window;
    window.applyStartup(cliOptions({}));
    // Distance, hits and misses, I/O sizes, combined requests, and the streams' view, hidden for a
    // run of one stream.
    QCOMPARE(window.dashboard()->views().size(), std::size_t(5));
    QVERIFY(window.dashboard()->views()[4]->isHidden());
    const RunConfig config = window.setupPanel()->config();
    QVERIFY(!config.dataset.name.empty());
    QVERIFY(!config.comparePolicy.empty()); // one click shows A vs B
    QVERIFY(window.setupPanel()->runButton()->isEnabled());
    QVERIFY(!window.errorDialog());
}

void TestGuiWindow::runUpdatesEveryPlot() {
    MainWindow window;
    QVERIFY(test::shownAt(window, 1400, 1000));
    runToEnd(window, kSmallRun);
    QCOMPARE(window.controller().summaries().size(), std::size_t(2));
    QVERIFY(window.dashboard()->verdict().contains(QStringLiteral("B (pg19)")));
    // Every view, on screen: its panes show data (more than background and grid colours).
    for (PlotView* view : window.dashboard()->views()) {
        if (view->isHidden()) // the streams' view, of runs of one stream
            continue;
        const QRect left = view->paneArea(0);
        QVERIFY2(distinctColours(view->grab().toImage(), left) > 3, qPrintable(view->title()));
        QVERIFY2(anyTooltip(view, left), qPrintable(view->title()));
    }
    // The pg18 distance pane has its collapse labelled; hovering over it says so.
    PlotView* distance = window.dashboard()->views()[0];
    const QRect pane = distance->paneArea(0);
    const QString tip = distance->tooltipAt(QPoint(pane.left() + pane.width() / 3, pane.center().y()));
    QVERIFY2(tip.contains(QStringLiteral("distance stuck at 1↔2")), qPrintable(tip));
}

void TestGuiWindow::stopMidRunIsClean() {
    MainWindow window;
    QSignalSpy data(&window.controller(), &RunController::dataArrived);
    QSignalSpy finished(&window.controller(), &RunController::finished);
    QCOMPARE(window.setupPanel()->setConfig(longRun()), QString());
    window.startRun();
    QVERIFY(test::caught(data, 3, kWindowTimeoutMs) > 2);
    QVERIFY(!window.setupPanel()->runButton()->isEnabled());
    window.stopRun();
    // The stop takes effect: the run ends cancelled, long before its 200 M blocks, and the window
    // is ready for the next one (the timeout only guards against a hang).
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QCOMPARE(finished.first().first().toBool(), true);
    QVERIFY(window.setupPanel()->runButton()->isEnabled());
    const RunTrace& trace = *window.controller().traces()[0];
    QVERIFY(trace.summary()->cancelled);
    QVERIFY(trace.positions() < longRun().dataset.blocks);
    QVERIFY(waitIdle(window));
}

void TestGuiWindow::closingMidRunIsClean() {
    auto window = std::make_unique<MainWindow>();
    window->show();
    QSignalSpy data(&window->controller(), &RunController::dataArrived);
    QCOMPARE(window->setupPanel()->setConfig(longRun()), QString());
    window->startRun();
    QVERIFY(test::caught(data, 3, kWindowTimeoutMs) > 2);
    // Closing cancels and joins the worker (a hang would trip ctest's timeout): nothing runs after.
    QVERIFY(window->close());
    QVERIFY(!window->controller().running());
    const std::uint64_t positions = window->controller().traces()[0]->positions();
    QVERIFY(positions < longRun().dataset.blocks);
    window.reset();
}

void TestGuiWindow::exportedPngHasSizeAndContent_data() {
    QTest::addColumn<int>("plot");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<double>("scale");
    QTest::newRow("dashboard 1200x900") << -1 << QSize(1200, 900) << 1.0;
    QTest::newRow("dashboard 800x700 at 2x") << -1 << QSize(800, 700) << 2.0;
    QTest::newRow("distance 900x300") << 0 << QSize(900, 300) << 1.0;
    QTest::newRow("hit/miss 700x300 at 1.5x") << 1 << QSize(700, 300) << 1.5;
    QTest::newRow("sizes 900x250") << 2 << QSize(900, 250) << 1.0;
    QTest::newRow("requests 900x300 at 2x") << 3 << QSize(900, 300) << 2.0;
}

void TestGuiWindow::exportedPngHasSizeAndContent() {
    QFETCH(int, plot);
    QFETCH(QSize, size);
    QFETCH(double, scale);
    MainWindow window;
    runToEnd(window, kSmallRun);
    PlotExportRequest request;
    request.plotIndex = plot;
    request.size = size;
    request.scale = scale;
    request.path = m_dir.filePath(QStringLiteral("export-%1.png").arg(plot * 10 + qRound(scale * 2)));
    QCOMPARE(window.exports()->exportPlots(request), QString());
    const QImage image(request.path);
    QCOMPARE(image.size(), QSize(qRound(size.width() * scale), qRound(size.height() * scale)));
    QVERIFY(image.text(QStringLiteral("lookahead.summary")).contains(QStringLiteral("lookahead.summary/1")));
    QVERIFY(image.text(QStringLiteral("Description")).contains(QStringLiteral("alternating")));
    // A live run's export says where it ran, as the command line's does.
    const QJsonObject provenance =
        QJsonDocument::fromJson(image.text(QStringLiteral("lookahead.summary")).toUtf8())
            .object()[QStringLiteral("provenance")]
            .toObject();
    QCOMPARE(provenance[QStringLiteral("command_line")].toString(), QStringLiteral("lookahead (window)"));
    QVERIFY(!provenance[QStringLiteral("kernel")].toString().isEmpty());
    // The A pane of every plot drawn, where the export's layout put it (logical pixels).
    std::vector<std::vector<QRect>> panes;
    window.dashboard()->renderImage(size, scale, window.caption(), plot, &panes);
    // The whole dashboard leaves out the streams' view of a run of one stream.
    QCOMPARE(panes.size(), plot < 0 ? window.dashboard()->views().size() - 1 : std::size_t(1));
    for (const std::vector<QRect>& view : panes) {
        const QRect logical = view.front();
        const QRect paneA(qRound(logical.left() * scale), qRound(logical.top() * scale),
                          qRound(logical.width() * scale), qRound(logical.height() * scale));
        QVERIFY(image.rect().contains(paneA));
        QVERIFY2(distinctColours(image, paneA) > 2,
                 qPrintable(QString::number(distinctColours(image, paneA))));
        QVERIFY2(inkShare(image, paneA) > 0.005, qPrintable(QString::number(inkShare(image, paneA))));
    }
}

void TestGuiWindow::headlessExportEqualsWindowExport() {
    LA_SKIP_FORK_UNDER_TSAN("this check is not about threads");
    const QString headlessPath = m_dir.filePath(QStringLiteral("headless.png"));
    QProcess process;
    process.setProgram(QStringLiteral(LOOKAHEAD_BINARY));
    process.setArguments(kSmallRun + QStringList{QStringLiteral("--headless"), QStringLiteral("--export-png"),
                                                 headlessPath, QStringLiteral("--png-size"),
                                                 QStringLiteral("1200x800")});
    process.start();
    QVERIFY(process.waitForFinished(kWindowTimeoutMs));
    QCOMPARE(process.exitCode(), 0);

    MainWindow window;
    runToEnd(window, kSmallRun);
    PlotExportRequest request;
    request.size = QSize(1200, 800);
    request.path = m_dir.filePath(QStringLiteral("window.png"));
    QCOMPARE(window.exports()->exportPlots(request), QString());

    const QImage a = QImage(headlessPath).convertToFormat(QImage::Format_RGB32);
    const QImage b = QImage(request.path).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(a.size(), QSize(1200, 800));
    QCOMPARE(b.size(), a.size());
    qint64 different = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            different += a.pixel(x, y) != b.pixel(x, y);
    const double share = static_cast<double>(different) / (a.width() * a.height());
    QVERIFY2(share < 0.001, qPrintable(QStringLiteral("%1 pixels differ").arg(different)));
}

void TestGuiWindow::unreadableBlockListShowsErrorAndStaysUsable() {
    MainWindow window;
    QSignalSpy finished(&window.controller(), &RunController::finished);
    const QString missing = m_dir.filePath(QStringLiteral("no-such-list.txt"));
    // Chosen in the dialog: checked at once.
    window.inputs()->openBlockList(missing);
    QVERIFY(window.errorDialog());
    QVERIFY2(window.errorDialog()->text().contains(missing), qPrintable(window.errorDialog()->text()));
    window.errorDialog()->close();
    // Set some other way (saved settings, command line): reported by the run.
    window.applyStartup(cliOptions(kSmallRun));
    window.setupPanel()->datasetPicker()->setBlockList(missing);
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(window.errorDialog()); // shown when the run failed, before it finished
    QVERIFY(window.errorDialog()->text().contains(missing));
    QVERIFY(window.setupPanel()->runButton()->isEnabled());
    window.errorDialog()->close();
    // Still usable: the next run works.
    window.setupPanel()->datasetPicker()->setBlockList({});
    window.startRun();
    QCOMPARE(test::caught(finished, 2, kWindowTimeoutMs), 2);
    QCOMPARE(window.controller().summaries().size(), std::size_t(2));
}

void TestGuiWindow::malformedBlockListShowsError() {
    const QString path =
        writeFile(m_dir.filePath(QStringLiteral("malformed.txt")), "# blocks\n12\n13\nfourteen\n");
    MainWindow window;
    window.inputs()->openBlockList(path);
    QVERIFY(window.errorDialog());
    QVERIFY2(window.errorDialog()->text().contains(QStringLiteral("malformed.txt")),
             qPrintable(window.errorDialog()->text()));
    QVERIFY(window.setupPanel()->runButton()->isEnabled());
    QCOMPARE(window.setupPanel()->config().blockList, std::string());
}

void TestGuiWindow::blockListGreysTheDatasetItReplaces() {
    const QString path = writeFile(m_dir.filePath(QStringLiteral("rows.txt")), "12\n13\nreset\n40\n");
    MainWindow window;
    DatasetPicker* picker = window.setupPanel()->datasetPicker();
    auto* dataset = picker->findChild<QComboBox*>(QStringLiteral("dataset"));
    auto* parameter = picker->findChild<QSpinBox*>(QStringLiteral("datasetParameter"));
    auto* description = picker->findChild<QLabel*>(QStringLiteral("datasetDescription"));
    auto* prewarm = window.setupPanel()->findChild<QComboBox*>(QStringLiteral("prewarm"));
    QVERIFY(dataset && parameter && description && prewarm);
    QVERIFY(dataset->isEnabled() && parameter->isEnabled());
    // An empty prewarm says which cache state it stands for.
    const QString datasetPrewarm = prewarm->lineEdit()->placeholderText();
    QVERIFY2(datasetPrewarm.startsWith(QStringLiteral("the dataset's own (")), qPrintable(datasetPrewarm));
    const QString datasetText = description->text();
    QVERIFY2(datasetText.contains(QStringLiteral("blocks")), qPrintable(datasetText));

    window.inputs()->openBlockList(path);
    QVERIFY(!window.errorDialog());
    QCOMPARE(window.setupPanel()->config().blockList, path.toStdString());
    // The dataset no longer decides what is scanned: its fields are greyed and the text says so.
    QVERIFY(!dataset->isEnabled());
    QVERIFY(!parameter->isEnabled());
    QVERIFY2(description->text().contains(QStringLiteral("rows.txt replaces the dataset")),
             qPrintable(description->text()));
    QVERIFY(!description->text().contains(dataset->currentText().trimmed()));
    QCOMPARE(prewarm->lineEdit()->placeholderText(), QStringLiteral("none: a block list starts cold"));
    QCOMPARE(effectivePrewarm(window.setupPanel()->config()), std::string("none"));

    // Cleared, the dataset is back as it was.
    picker->setBlockList({});
    QVERIFY(dataset->isEnabled() && parameter->isEnabled());
    QCOMPARE(description->text(), datasetText);
    QCOMPARE(prewarm->lineEdit()->placeholderText(), datasetPrewarm);
}

void TestGuiWindow::unknownDatasetShowsError() {
    MainWindow window;
    window.applyStartup(
        cliOptions({QStringLiteral("--dataset"), QStringLiteral("no-such-preset"), QStringLiteral("--run")}));
    QVERIFY(window.errorDialog());
    QVERIFY2(window.errorDialog()->text().contains(QStringLiteral("no-such-preset")),
             qPrintable(window.errorDialog()->text()));
    QVERIFY(!window.controller().running());
    QVERIFY(window.setupPanel()->runButton()->isEnabled());
}

void TestGuiWindow::exportOntoAnInputIsRefused() {
    const QString list = writeFile(m_dir.filePath(QStringLiteral("input-blocks.txt")), "1\n2\n3\n5\n8\n");
    MainWindow window;
    runToEnd(window, {QStringLiteral("--blocks"), list, QStringLiteral("--policy"), QStringLiteral("pg18")});
    PlotExportRequest request;
    request.path = list;
    const QString pngError = window.exports()->exportPlots(request);
    QVERIFY2(pngError.contains(QStringLiteral("same file as --blocks")), qPrintable(pngError));
    const QString jsonError = window.exports()->exportSummaryJson(list);
    QVERIFY2(jsonError.contains(QStringLiteral("same file as --blocks")), qPrintable(jsonError));
    QCOMPARE(test::readFile(list), QByteArray("1\n2\n3\n5\n8\n"));
}

void TestGuiWindow::exportWriteErrorSaysWhy() {
    MainWindow window;
    runToEnd(window, kSmallRun);
    PlotExportRequest request;
    request.path = QStringLiteral("/dev/full");
    const QString full = QString::fromUtf8(std::strerror(ENOSPC));
    QString error = window.exports()->exportPlots(request);
    QVERIFY2(error.contains(QStringLiteral("cannot write PNG '/dev/full'")) && error.contains(full),
             qPrintable(error));
    error = window.exports()->exportSummaryJson(QStringLiteral("/dev/full"));
    QVERIFY2(error.contains(QStringLiteral("cannot write summary JSON '/dev/full'")) && error.contains(full),
             qPrintable(error));
    request.path = m_dir.filePath(QStringLiteral("no-such-dir/plots.png"));
    error = window.exports()->exportPlots(request);
    QVERIFY2(error.contains(request.path) && error.contains(QString::fromUtf8(std::strerror(ENOENT))),
             qPrintable(error));
    QVERIFY(!error.contains(QStringLiteral("Unknown error")));
}

QString TestGuiWindow::makeFile(const QString& name, qint64 bytes) {
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    QByteArray chunk(8192, '\0');
    for (qint64 done = 0; done < bytes; done += chunk.size()) {
        for (int i = 0; i < chunk.size(); i += 512)
            chunk[i] = static_cast<char>((done / 8192 + i) & 0x7f); // no holes, no zero pages
        file.write(chunk.constData(), std::min<qint64>(chunk.size(), bytes - done));
    }
    return path;
}

namespace {

// The rows of a trace CSV, split into cells, per run label.
std::map<QString, std::vector<QList<QByteArray>>> csvRows(const QString& path) {
    std::map<QString, std::vector<QList<QByteArray>>> rows;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return rows;
    file.readLine(); // header
    while (!file.atEnd()) {
        const QList<QByteArray> cells = file.readLine().trimmed().split(',');
        rows[QString::fromUtf8(cells[0])].push_back(cells);
    }
    return rows;
}

} // namespace

// With real I/O no two runs are alike, so only the runs on screen can be exported: the CSV holds
// exactly their reads (start time, block, size) and positions, and no new run is started.
void TestGuiWindow::exportedCsvHoldsTheRunsOnScreen() {
    const QString data = makeFile(QStringLiteral("scan-me.bin"), 4 << 20);
    MainWindow window;
    runToEnd(window, {QStringLiteral("--file"), data, QStringLiteral("--io"), QStringLiteral("sync"),
                      QStringLiteral("--policy"), QStringLiteral("pg18"), QStringLiteral("--compare-policy"),
                      QStringLiteral("pg19")});
    const quint64 generation = window.controller().generation();
    const std::vector<const RunTrace*> traces = window.controller().traces();
    QCOMPARE(traces.size(), std::size_t(2));
    const QString csv = m_dir.filePath(QStringLiteral("on-screen.csv"));
    QSignalSpy written(window.exports(), &ScreenExports::traceCsvFinished);
    QCOMPARE(window.exports()->exportTraceCsv(csv), QString());
    QCOMPARE(test::caught(written, 1, kWindowTimeoutMs), 1);
    QCOMPARE(written.first().at(1).toString(), QString());
    QCOMPARE(window.controller().generation(), generation);
    QVERIFY(!window.controller().running());
    const auto rows = csvRows(csv);
    QCOMPARE(rows.size(), std::size_t(2));
    for (const RunTrace* trace : traces) {
        const auto it = rows.find(QString::fromStdString(trace->label()));
        QVERIFY2(it != rows.end(), trace->label().c_str());
        std::size_t read = 0;
        std::uint64_t consumed = 0, misses = 0;
        for (const QList<QByteArray>& cells : it->second) {
            QCOMPARE(cells.size(), 13);
            if (cells[3] == "consumed")
                ++consumed;
            if (cells[3] == "miss")
                ++misses;
            if (cells[3] != "read_started")
                continue;
            QVERIFY(read < trace->reads());
            const ReadRecord record = trace->read(read++);
            QCOMPARE(cells[1].toLongLong(), record.startNs);
            QCOMPARE(cells[4].toUInt(), record.block);
            QCOMPARE(cells[5].toUInt(), unsigned(record.nblocks));
        }
        QCOMPARE(read, trace->reads());
        QCOMPARE(consumed, trace->positions());
        QCOMPARE(consumed, trace->summary()->blocks);
        QCOMPARE(misses, trace->summary()->misses);
        QCOMPARE(static_cast<std::uint64_t>(read), trace->summary()->ios);
    }
}

// A start that fails in the worker (a block list past the end of the file) keeps the plots, the
// summary and the verdict of the last run, and says what failed.
void TestGuiWindow::failedStartKeepsThePreviousResults() {
    MainWindow window;
    runToEnd(window, kSmallRun);
    const std::vector<const RunTrace*> shown = window.dashboard()->runs();
    const QString verdict = window.dashboard()->verdict();
    const auto summary = window.dashboard()->summaryPanel()->rows();
    QVERIFY(!verdict.isEmpty());
    const QString data = makeFile(QStringLiteral("small.bin"), 16 * 8192);
    const QString list = writeFile(m_dir.filePath(QStringLiteral("beyond.txt")), "3\n4\n5000\n");
    RunConfig config = window.setupPanel()->config();
    config.io = IoMode::Sync;
    config.file = data.toStdString();
    QCOMPARE(window.setupPanel()->setConfig(config), QString());
    window.setupPanel()->datasetPicker()->setBlockList(list);
    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(window.errorDialog()); // shown when the run failed, before it finished
    const QString error = window.errorDialog()->text();
    QVERIFY2(error.contains(QStringLiteral("5000")) || error.contains(QStringLiteral("beyond.txt")),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("previous results")), qPrintable(error));
    QCOMPARE(window.dashboard()->runs(), shown);
    QCOMPARE(window.dashboard()->verdict(), verdict);
    const auto after = window.dashboard()->summaryPanel()->rows();
    QCOMPARE(after.size(), summary.size());
    for (std::size_t i = 0; i < after.size(); ++i)
        QCOMPARE(after[i].values, summary[i].values);
    const QString status = window.statusBar()->currentMessage();
    QVERIFY2(status.startsWith(QStringLiteral("Failed")) &&
                 status.contains(QStringLiteral("previous results")),
             qPrintable(status));
    QVERIFY(window.dashboard()->stale()); // the panel now describes the run that failed
    QVERIFY(window.setupPanel()->runButton()->isEnabled());
}

// Open file… checks the file at once, in the window's words; a bad one is never set.
void TestGuiWindow::badFilesAreRefusedWhenChosen() {
    const QString tiny = makeFile(QStringLiteral("tiny.bin"), 100);
    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    const std::pair<QString, QString> cases[] = {
        {tiny, QStringLiteral("shorter than one 8 kB block")},
        {QStringLiteral("/dev/zero"), QStringLiteral("not a regular file")},
        {m_dir.filePath(QStringLiteral("missing.bin")), QStringLiteral("No such file")},
        {m_dir.path(), QStringLiteral("is a directory")},
    };
    for (const auto& [path, why] : cases) {
        window.inputs()->openFile(path);
        QVERIFY2(window.errorDialog(), qPrintable(path));
        const QString text = window.errorDialog()->text();
        QVERIFY2(text.contains(path) && text.contains(why), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("--")), qPrintable(text)); // no command-line wording
        QCOMPARE(window.setupPanel()->config().file, std::string());
        QCOMPARE(window.setupPanel()->config().io, IoMode::Sim);
        window.errorDialog()->close();
    }
}

// Every input the window opens goes through the command line's one check (core/files/input_file.h,
// issue 42 defect 6): a FIFO given as any of them is refused at once, in a dialog naming it, never
// opened for a read that would wait for a writer on the window's thread or its worker.
void TestGuiWindow::fifoIsRefusedAsEveryInput() {
    const QString fifo = m_dir.filePath(QStringLiteral("input.fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString isFifo = QStringLiteral("'%1': it is a FIFO (named pipe), not a regular file").arg(fifo);
    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    // The dialog's text if it says so, else what it says (or that there is none); it is closed.
    const auto refused = [&](const char* input) {
        QMessageBox* dialog = window.errorDialog();
        if (!dialog)
            return QStringLiteral("no error dialog for the ") + QLatin1String(input);
        const QString text = dialog->text() + QLatin1Char('\n') + dialog->informativeText();
        dialog->close();
        return text.contains(isFifo) ? QString() : text;
    };
    // Chosen in the File menu: checked at once, on the window's thread.
    window.inputs()->openFile(fifo);
    QCOMPARE(refused("file to scan"), QString());
    window.inputs()->openBlockList(fifo);
    QCOMPARE(refused("block list"), QString());
    // Read on a worker thread: an imported trace, a session.
    std::optional<QString> imported = test::importTraceAndWait(window, fifo);
    QVERIFY(imported);
    QVERIFY2(imported->contains(isFifo), qPrintable(*imported));
    QCOMPARE(refused("trace"), QString());
    QSignalSpy opened(window.sessions(), &SessionFiles::opened);
    window.sessions()->open(fifo);
    QCOMPARE(test::caught(opened, 1, kWindowTimeoutMs), 1);
    QVERIFY2(opened.first().at(1).toString().contains(isFifo), qPrintable(opened.first().at(1).toString()));
    QCOMPARE(refused("session"), QString());
    // Read when a run starts: a device profile, and the EXPLAIN output of an imported trace.
    QSignalSpy failed(&window.controller(), &RunController::failed); // it shows the error dialog
    window.applyStartup(cliOptions(kSmallRun + QStringList{QStringLiteral("--device-profile"), fifo}));
    window.startRun();
    QCOMPARE(test::caught(failed, 1, kWindowTimeoutMs), 1);
    QCOMPARE(refused("device profile"), QString());
    QVERIFY(waitIdle(window));
    window.applyStartup(cliOptions(kSmallRun));
    const QString trace = m_dir.filePath(QStringLiteral("fifo-test.strace"));
    QVERIFY(test::writeSmallStrace(trace));
    imported = test::importTraceAndWait(window, trace);
    QVERIFY(imported);
    QCOMPARE(*imported, QString());
    window.setupPanel()->setExplainPath(fifo);
    QSignalSpy finished(&window.controller(), &RunController::finished); // its run stopped on the error
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QCOMPARE(refused("EXPLAIN output"), QString());
    QVERIFY(waitIdle(window));
    // The Sweep view's spec: refused in a message box of its own.
    QString sweepError;
    QTimer::singleShot(0, this, [&sweepError] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            sweepError = box->text();
            box->close();
        }
    });
    window.applyStartup(cliOptions({QStringLiteral("--sweep"), fifo}));
    QVERIFY2(sweepError.contains(isFifo), qPrintable(sweepError));
}

// `lookahead --file /nonexistent --run` opens the window with an error, runs nothing, and keeps
// the default dataset.
void TestGuiWindow::badFileOnTheCommandLineIsRefused() {
    MainWindow window;
    QSignalSpy started(&window.controller(), &RunController::started);
    window.applyStartup(
        cliOptions({QStringLiteral("--file"), QStringLiteral("/nonexistent"), QStringLiteral("--run")}));
    QVERIFY(window.errorDialog());
    QVERIFY2(window.errorDialog()->text().contains(QStringLiteral("/nonexistent")),
             qPrintable(window.errorDialog()->text()));
    QCOMPARE(window.setupPanel()->config().file, std::string());
    // --run starts from the event loop: once a call queued after applyStartup() has run, whatever it
    // queued has too.
    QTimer turn;
    turn.setSingleShot(true);
    QSignalSpy drained(&turn, &QTimer::timeout);
    turn.start(0);
    QCOMPARE(test::caught(drained, 1, kWindowTimeoutMs), 1);
    QCOMPARE(started.count(), 0);
    QVERIFY(!window.controller().running());
    QVERIFY(window.controller().traces().empty());
}

// SVG and PDF are drawings, not one embedded picture: lines and text as vector elements, the page
// the requested size, and the same metadata as a PNG (caption, labels, compare mode, config).
void TestGuiWindow::vectorExportsAreDrawingsWithMetadata() {
    MainWindow window;
    runToEnd(window, kSmallRun);
    PlotExportRequest request;
    request.size = QSize(1200, 800);
    request.format = PlotFormat::Svg;
    request.path = m_dir.filePath(QStringLiteral("dashboard.svg"));
    QCOMPARE(window.exports()->exportPlots(request), QString());
    QFile svgFile(request.path);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svgFile);
    std::map<QString, int> elements;
    QString description, viewBox;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        ++elements[xml.name().toString()];
        if (xml.name() == QStringLiteral("svg"))
            viewBox = xml.attributes().value(QStringLiteral("viewBox")).toString();
        if (xml.name() == QStringLiteral("desc"))
            description = xml.readElementText();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(viewBox, QStringLiteral("0 0 1200 800"));
    QVERIFY2(elements[QStringLiteral("text")] > 100,
             qPrintable(QString::number(elements[QStringLiteral("text")])));
    QVERIFY(elements[QStringLiteral("path")] + elements[QStringLiteral("polyline")] > 50);
    QVERIFY(description.contains(QStringLiteral("\"compare\":\"policy\"")));
    QVERIFY(description.contains(QStringLiteral("\"label\":\"pg19\"")));
    QVERIFY(description.contains(QStringLiteral("alternating")));
    // Drawn by an SVG renderer, every plot has ink where the PNG export has it.
    QSvgRenderer renderer(request.path);
    QVERIFY(renderer.isValid());
    QImage drawn(request.size, QImage::Format_ARGB32);
    drawn.fill(Qt::white);
    QPainter painter(&drawn);
    renderer.render(&painter);
    painter.end();
    std::vector<std::vector<QRect>> panes;
    window.dashboard()->renderImage(request.size, 1.0, window.caption(), -1, &panes);
    for (const std::vector<QRect>& view : panes)
        for (const QRect& pane : view)
            QVERIFY2(inkShare(drawn, pane) > 0.005, qPrintable(QString::number(inkShare(drawn, pane))));

    request.format = PlotFormat::Pdf;
    request.path = m_dir.filePath(QStringLiteral("dashboard.pdf"));
    QCOMPARE(window.exports()->exportPlots(request), QString());
    QFile pdfFile(request.path);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    const QByteArray pdf = pdfFile.readAll();
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.contains("lookahead.summary"));
    QVERIFY(pdf.contains("pg19"));
    QCOMPARE(pdf.count("/Type /Page\n") + pdf.count("/Type /Page\r") + pdf.count("/Type /Page "), 1);
}

// --export-svg and --export-pdf beside --export-png, in one run.
void TestGuiWindow::headlessWritesEveryPlotFormat() {
    LA_SKIP_FORK_UNDER_TSAN("this check is not about threads");
    const QString png = m_dir.filePath(QStringLiteral("all.png"));
    const QString svg = m_dir.filePath(QStringLiteral("all.svg"));
    const QString pdf = m_dir.filePath(QStringLiteral("all.pdf"));
    QProcess process;
    process.setProgram(QStringLiteral(LOOKAHEAD_BINARY));
    process.setArguments(kSmallRun + QStringList{QStringLiteral("--export-png"), png,
                                                 QStringLiteral("--export-svg"), svg,
                                                 QStringLiteral("--export-pdf"), pdf});
    process.start();
    QVERIFY(process.waitForFinished(kWindowTimeoutMs));
    QCOMPARE(process.exitCode(), 0);
    QCOMPARE(QImage(png).size(), QSize(1600, 1000));
    QVERIFY(QSvgRenderer(svg).isValid());
    QCOMPARE(QSvgRenderer(svg).viewBox(), QRect(0, 0, 1600, 1000));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().startsWith("%PDF-"));
}

// Every text an export carries is escaped for its format: a file whose name holds XML's specials,
// quotes, a control character and non-ASCII, scanned and exported headless as SVG, PDF and PNG. Read
// back by the programs a user opens them with: xmllint and rsvg-convert take the SVG, pdfinfo the
// PDF (its title, and its XMP packet through xmllint), libpng the PNG's text; the name is in each,
// the control character written as \x01 (XML cannot hold it), nothing else changed.
void TestGuiWindow::exportTextsAreEscapedForTheirFormat() {
    LA_SKIP_FORK_UNDER_TSAN("this check is not about threads");
    const QString name = QString::fromUtf8("a<b&c \"q\" 'é→' \x01 end.dat");
    const QString data = makeFile(name, 64 * 8192);
    const QString shown = QString::fromUtf8("a<b&c \"q\" 'é→' \\x01 end.dat");
    const QString png = m_dir.filePath(QStringLiteral("escaped.png"));
    const QString svg = m_dir.filePath(QStringLiteral("escaped.svg"));
    const QString pdf = m_dir.filePath(QStringLiteral("escaped.pdf"));
    QProcess process;
    process.setProgram(QStringLiteral(LOOKAHEAD_BINARY));
    process.setArguments({QStringLiteral("--file"), data, QStringLiteral("--io"), QStringLiteral("sync"),
                          QStringLiteral("--policy"), QStringLiteral("pg18"),
                          QStringLiteral("--compare-policy"), QStringLiteral("pg19"),
                          QStringLiteral("--export-png"), png, QStringLiteral("--export-svg"), svg,
                          QStringLiteral("--export-pdf"), pdf});
    process.start();
    QVERIFY(process.waitForFinished(kWindowTimeoutMs));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());

    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgBytes = svgFile.readAll();
    QVERIFY(!svgBytes.contains('\x01'));
    const QString svgError = test::svgReadBack(svg);
    QVERIFY2(svgError.isEmpty(), qPrintable(svgError));
    QXmlStreamReader xml(svgBytes);
    QString title, description;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement) {
            if (xml.name() == QStringLiteral("title"))
                title = xml.readElementText();
            else if (xml.name() == QStringLiteral("desc"))
                description = xml.readElementText();
        }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY2(title.contains(shown), qPrintable(title));
    QVERIFY2(description.contains(shown), qPrintable(description));
    QVERIFY2(description.contains(QStringLiteral("lookahead.summary: {")), qPrintable(description));

    QString pdfError;
    const QString pdfTitle = test::pdfTitle(pdf, pdfError);
    QVERIFY2(pdfError.isEmpty(), qPrintable(pdfError));
    QVERIFY2(pdfTitle.contains(shown), qPrintable(pdfTitle));

    QVERIFY2(test::pngText(png, QStringLiteral("Title")).contains(shown),
             qPrintable(test::pngText(png, QStringLiteral("Title"))));
    QVERIFY2(test::pngText(png, QStringLiteral("Description")).contains(shown),
             qPrintable(test::pngText(png, QStringLiteral("Description"))));
    // The summary JSON keeps the name as it is: JSON escapes the control character itself.
    QVERIFY(
        test::pngText(png, QStringLiteral("lookahead.summary")).contains(QStringLiteral("\\u0001 end.dat")));
}

// The simulated device, io_workers, seed, max_pinned, the buffer strategy and the collapse window are set in
// the window and reach the run as the command line's options would; "auto" leaves max_pinned to the
// mechanics.
void TestGuiWindow::advancedSettingsReachTheRun() {
    MainWindow window;
    const CliOptions given = cliOptions(
        kSmallRun + QStringList{QStringLiteral("--latency-us"), QStringLiteral("200"),
                                QStringLiteral("--jitter"), QStringLiteral("0.3"),
                                QStringLiteral("--device-parallelism"), QStringLiteral("8"),
                                QStringLiteral("--io-workers"), QStringLiteral("5"), QStringLiteral("--seed"),
                                QStringLiteral("123456789012"), QStringLiteral("--max-pinned"),
                                QStringLiteral("40"), QStringLiteral("--collapse-window"),
                                QStringLiteral("64"), QStringLiteral("--strategy"), QStringLiteral("none")});
    window.applyStartup(given);
    const RunConfig shown = window.setupPanel()->config();
    for (const char* name : {"latency-us", "jitter", "device-parallelism", "io-workers", "seed", "max-pinned",
                             "collapse-window", "strategy"}) {
        const RunOption& option = *findRunOption(name);
        QCOMPARE(QString::fromStdString(option.get(shown)), QString::fromStdString(option.get(given.run)));
    }
    QCOMPARE(shown.stream.maxPinnedOverride, 40);
    QCOMPARE(shown.dataset.seed, std::uint64_t(123456789012));
    QCOMPARE(shown.device.jitter, 0.3);
    QVERIFY(shown.strategy == StrategyChoice::None);
    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QCOMPARE(window.controller().summaries().front().maxPinned, 40);
    QVERIFY(!window.dashboard()->stale());
    auto* maxPinned = window.setupPanel()->findChild<QSpinBox*>(QString(), Qt::FindChildrenRecursively);
    QVERIFY(maxPinned);
    for (QSpinBox* box : window.setupPanel()->findChildren<QSpinBox*>())
        if (box->specialValueText() == QStringLiteral("auto") && box->value() == 40)
            maxPinned = box;
    QCOMPARE(maxPinned->value(), 40);
    maxPinned->setValue(maxPinned->minimum());
    QCOMPARE(window.setupPanel()->config().stream.maxPinnedOverride, 0);
    QVERIFY(window.dashboard()->stale()); // a changed advanced setting marks the plots
}

// A wheel turned over the run setup scrolls it: a field it passes over keeps its value until the
// user has clicked or tabbed into it.
// After a one-run session (no policy B), choosing "B: another policy" offers a policy, not an empty
// entry that would compare nothing.
void TestGuiWindow::anotherPolicyOffersOne() {
    MainWindow window;
    RunSetupPanel* panel = window.setupPanel();
    panel->setComparison(Comparison::None);
    RunConfig config = panel->config();
    config.policy = "pg18";
    config.comparePolicy.clear();
    QCOMPARE(panel->setConfig(config), QString());
    panel->setComparison(Comparison::Policy);
    QCOMPARE(panel->config().comparePolicy, std::string("pg19"));
    config.policy = "pg19";
    config.comparePolicy.clear();
    QCOMPARE(panel->setConfig(config), QString());
    panel->setComparison(Comparison::None);
    panel->setComparison(Comparison::Policy);
    QCOMPARE(panel->config().comparePolicy, std::string("pg18"));
}

// Help lists every shortcut the window has (the axis toggles among them) and the shipped docs.
void TestGuiWindow::helpListsShortcutsAndDocs() {
    MainWindow window;
    const QStringList lines = shortcutLines(&window);
    for (const QString& expected :
         {QStringLiteral("Run\tCtrl+R"), QStringLiteral("Time axis\tCtrl+1"),
          QStringLiteral("Position axis\tCtrl+2"), QStringLiteral("Reset zoom\tCtrl+0")})
        QVERIFY2(lines.contains(expected), qPrintable(lines.join(QLatin1Char('|'))));
    QVERIFY(!documentationDir().isEmpty());
    QStringList docs;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == QStringLiteral("&Help"))
            for (QAction* entry : menu->menu()->actions())
                if (entry->menu())
                    for (QAction* doc : entry->menu()->actions())
                        docs << doc->text();
    QVERIFY2(docs.contains(QStringLiteral("The read-stream model: PostgreSQL 17, 18 and 19")),
             qPrintable(docs.join(QLatin1Char('|'))));
}

// Help → Documentation opens the document in the program's own viewer, rendered from its Markdown
// (no desktop viewer needed): its words without the markup, every document in the list, a link to
// another followed, and the folder they are read from named.
void TestGuiWindow::documentationOpensInItsOwnViewer() {
    MainWindow window;
    QVERIFY(test::shownAt(window, 1280, 720));
    QAction* model = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == QStringLiteral("&Help"))
            for (QAction* entry : menu->menu()->actions())
                if (entry->menu())
                    for (QAction* doc : entry->menu()->actions())
                        if (doc->text() == QStringLiteral("Repeated runs and the noise of real I/O"))
                            model = doc;
    QVERIFY(model);
    model->trigger();
    auto* viewer = window.findChild<DocsViewer*>();
    QVERIFY(viewer);
    QVERIFY(viewer->isVisible());
    QCOMPARE(viewer->currentFile(), QStringLiteral("repeats.md"));
    const QString text = viewer->renderedText();
    QVERIFY2(text.startsWith(QStringLiteral("Repeated runs and the noise of real I/O")),
             qPrintable(text.left(200)));
    QVERIFY2(text.contains(QStringLiteral("Mann–Whitney rank test")), qPrintable(text.left(2000)));
    QVERIFY2(!text.contains(QStringLiteral("## ")) && !text.contains(QStringLiteral("**")) &&
                 !text.contains(QStringLiteral("|---|")),
             qPrintable(text.left(2000)));
    QCOMPARE(viewer->titles().size(), documentationEntries(documentationDir()).size());
    QVERIFY(viewer->titles().contains(QStringLiteral("Architecture")));
    bool named = false;
    for (const QLabel* label : viewer->findChildren<QLabel*>())
        named = named || label->text().contains(documentationDir());
    QVERIFY(named);
    // Opened again from the menu, the same viewer shows the other document.
    DocsViewer::showDocument(&window, QStringLiteral("architecture.md"));
    QCOMPARE(window.findChildren<DocsViewer*>().size(), 1);
    QCOMPARE(viewer->currentFile(), QStringLiteral("architecture.md"));
    QVERIFY(viewer->renderedText().startsWith(QStringLiteral("Architecture")));
    if (const QString dir = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !dir.isEmpty()) {
        for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
            viewer->resize(size * 0.9);
            DocsViewer::showDocument(&window, QStringLiteral("repeats.md"));
            QCoreApplication::processEvents();
            viewer->grab().save(
                QStringLiteral("%1/docs-viewer-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
        }
    }
}

// B's field names what B is, whatever the comparison: another policy, A's policy with the one thing
// changed, or nothing; with an imported trace A is the trace, not a policy.
void TestGuiWindow::policyBNamesWhatBIs() {
    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    RunSetupPanel* panel = window.setupPanel();
    const auto bField = [panel] { return panel->policyBField(); };
    const auto shownB = [&] {
        QComboBox* b = bField();
        return b->currentText().isEmpty() ? b->lineEdit()->placeholderText() : b->currentText();
    };
    panel->setComparison(Comparison::BackwardCombining);
    QCOMPARE(shownB(), QStringLiteral("pg18 with backward combining on"));
    QVERIFY(!bField()->isEnabled());
    RunConfig config = panel->config();
    config.stream.backwardCombining = true;
    QCOMPARE(panel->setConfig(config), QString());
    QCOMPARE(shownB(), QStringLiteral("pg18 with backward combining off"));
    panel->setComparison(Comparison::Direction);
    QCOMPARE(shownB(), QStringLiteral("pg18, backward"));
    panel->setComparison(Comparison::None);
    QCOMPARE(shownB(), QStringLiteral("none (no comparison)"));
    panel->setComparison(Comparison::Policy);
    QCOMPARE(shownB(), QStringLiteral("pg19"));
    QVERIFY(bField()->isEnabled());
}

void TestGuiWindow::wheelScrollsThePanelNotItsFields() {
    MainWindow window;
    QVERIFY(test::shownAt(window, 1200, 600));
    auto* area = qobject_cast<QScrollArea*>(window.setupPanel()->parentWidget()->parentWidget());
    QVERIFY(area);
    QSpinBox* box = nullptr;
    for (QSpinBox* candidate : window.setupPanel()->findChildren<QSpinBox*>())
        if (candidate->isVisible() && candidate->isEnabled() && candidate->value() > candidate->minimum())
            box = candidate;
    QVERIFY(box);
    const int before = box->value();
    const int scrolled = area->verticalScrollBar()->value();
    const auto turn = [box] {
        const QPointF at(box->width() / 2.0, box->height() / 2.0);
        QWheelEvent wheel(at, box->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(box, &wheel);
    };
    turn();
    QCOMPARE(box->value(), before);
    QVERIFY(area->verticalScrollBar()->value() > scrolled); // the panel moved instead
    QSignalSpy focused(qApp, &QApplication::focusChanged);
    box->setFocus(Qt::MouseFocusReason);
    QVERIFY(test::until(
        focused, [box] { return box->hasFocus(); }, kWindowTimeoutMs));
    turn();
    QCOMPARE(box->value(), before - box->singleStep()); // chosen: the wheel is the field's
}

// A real run writes its dataset file into the cache; the panel shows the size, and Clear deletes
// that file only: a foreign file with the same suffix and any other file stay.
void TestGuiWindow::datasetCacheShowsItsSizeAndClearsOnlyOurFiles() {
    QTemporaryDir cache;
    QVERIFY(cache.isValid());
    QFile::setPermissions(cache.path(),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QFile foreign(cache.filePath(QStringLiteral("foreign.heap")));
    QVERIFY(foreign.open(QIODevice::WriteOnly));
    foreign.write(QByteArray(8192, 'x'));
    foreign.close();
    QFile notes(cache.filePath(QStringLiteral("notes.txt")));
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("mine\n");
    notes.close();
    MainWindow window;
    runToEnd(window, {QStringLiteral("--dataset"), QStringLiteral("seq"), QStringLiteral("--pattern-blocks"),
                      QStringLiteral("512"), QStringLiteral("--io"), QStringLiteral("sync"),
                      QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--policy"),
                      QStringLiteral("pg18")});
    QCOMPARE(window.controller().summaries().size(), std::size_t(1));
    DatasetCacheView* view = window.setupPanel()->cacheView();
    QSignalSpy listed(view, &DatasetCacheView::changed);
    QVERIFY(test::until(
        listed, [view] { return !view->busy() && view->cache().files.size() == 1; }, kWindowTimeoutMs));
    QVERIFY2(view->text().contains(QStringLiteral("4.0 MiB in 1 file")), qPrintable(view->text()));
    view->clear();
    QVERIFY(test::until(
        listed, [view] { return !view->busy() && view->cache().files.empty(); }, kWindowTimeoutMs));
    QVERIFY2(view->text().contains(QStringLiteral("none")), qPrintable(view->text()));
    const QStringList left = QDir(cache.path()).entryList(QDir::Files);
    QCOMPARE(left, (QStringList{QStringLiteral("foreign.heap"), QStringLiteral("notes.txt")}));
}

// A trace of a run, made here by the binary itself, imported in the window: the Compare mode becomes
// "B: model this trace", Run shows the observed reads beside pg19's model of the same blocks, the
// panes a trace cannot fill say so, and the export refuses to overwrite the trace.
void TestGuiWindow::importedTraceIsShownBesideItsModel() {
    LA_SKIP_FORK_UNDER_TSAN("this check is not about threads");
    const QString csv = m_dir.filePath(QStringLiteral("observed.csv"));
    QProcess process;
    process.start(QStringLiteral(LOOKAHEAD_BINARY),
                  {QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("seq"),
                   QStringLiteral("--pattern-blocks"), QStringLiteral("2048"), QStringLiteral("--policy"),
                   QStringLiteral("pg18"), QStringLiteral("--trace-csv"), csv});
    QVERIFY(process.waitForFinished(kWindowTimeoutMs));
    QCOMPARE(process.exitCode(), 0);

    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    std::optional<QString> imported = test::importTraceAndWait(window, csv);
    QVERIFY(imported);
    QCOMPARE(*imported, QString());
    QVERIFY(window.inputs()->importedTrace());
    QVERIFY(window.setupPanel()->hasTrace());
    QCOMPARE(window.setupPanel()->comparison(), Comparison::Observed);
    const std::size_t reads = window.inputs()->importedTrace()->reads.size();
    QVERIFY(reads > 0);

    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(window));
    const std::vector<const RunTrace*> traces = window.controller().traces();
    QCOMPARE(traces.size(), std::size_t(2));
    QVERIFY(traces[0]->observed());
    QCOMPARE(traces[0]->reads(), reads);
    QCOMPARE(traces[1]->label(), std::string("pg19 model"));
    QCOMPARE(traces[1]->positions(), std::uint64_t(2048)); // every block the reads imply
    QVERIFY2(window.dashboard()->verdict().startsWith(QStringLiteral("observed ")),
             qPrintable(window.dashboard()->verdict()));
    QVERIFY2(window.caption().contains(QStringLiteral("observed vs pg19 model")),
             qPrintable(window.caption()));
    const QImage image = window.dashboard()->renderImage(QSize(1200, 800), 1.0, window.caption());
    QVERIFY(!image.isNull());
    PlotExportRequest onto;
    onto.path = csv;
    const QString refused = window.exports()->exportPlots(onto);
    QVERIFY2(refused.contains(QStringLiteral("imported trace")), qPrintable(refused));

    window.inputs()->closeTrace();
    QVERIFY(!window.setupPanel()->hasTrace());
    QCOMPARE(window.setupPanel()->comparison(), Comparison::Policy);

    const QString binary = m_dir.filePath(QStringLiteral("binary.trace"));
    QFile file(binary);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("\x7f"
                          "ELF\x02\x01\x01\0\0\0",
                          10)
                   .repeated(100));
    file.close();
    imported = test::importTraceAndWait(window, binary);
    QVERIFY(imported);
    QVERIFY(!imported->isEmpty());
    QVERIFY(window.errorDialog());
    QVERIFY2(window.errorDialog()->text().contains(QStringLiteral("binary.trace")),
             qPrintable(window.errorDialog()->text()));
    QVERIFY(!window.inputs()->importedTrace());
}

// Open PostgreSQL index with a real server's files: the index is read off the GUI thread, its
// facts replace the dataset's description, and Run scans the heap in the index's order. A table
// file given as the index is refused in a dialog that names it.
void TestGuiWindow::postgresIndexScanFromTheWindow() {
    LA_SKIP_FORK_UNDER_TSAN("the server is started with fork()");
    if (const QString why = test::PgServer::unavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    test::PgServer server;
    auto [heap, index, error] = server.startWithHashClusteredTable();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString distinct = server.sql(
        QStringLiteral("SELECT count(DISTINCT (ctid::text::point)[0]) FROM t WHERE a BETWEEN 100 AND 5000"),
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    MainWindow window;
    window.applyStartup(cliOptions(kSmallRun));
    RunConfig config =
        test::withPgIndexScan(window.setupPanel()->config(), server.dataDir(), index, heap, "100:5000");
    std::optional<QString> checked = test::openPgScanAndWait(window, config);
    QVERIFY(checked);
    QCOMPARE(*checked, QString());
    QCOMPARE(window.setupPanel()->config().pg.index, index.toStdString());
    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    const std::vector<RunSummary> runs = window.controller().summaries();
    QCOMPARE(runs.size(), std::size_t(2));
    QVERIFY2(runs[0].error.empty(), runs[0].error.c_str());
    // Hash-clustered: nearly every TID is on another block, so visits come close to the distinct blocks.
    QVERIFY(runs[0].blocks >= distinct.toULongLong());
    QVERIFY(runs[0].ios > 0);

    config.pg.index = heap.toStdString();
    checked = test::openPgScanAndWait(window, config);
    QVERIFY(checked);
    QVERIFY(!checked->isEmpty());
    QVERIFY(window.errorDialog());
    QVERIFY2(window.errorDialog()->text().contains(heap.section(QLatin1Char('/'), -1)),
             qPrintable(window.errorDialog()->text()));
}

QTEST_MAIN(TestGuiWindow)
#include "tst_gui_window.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The views as a user reads them, offscreen: the axes every pane shows (after a start in position mode,
// at a deep zoom), the distance plot's log2 axis fitted to a zoomed collapse, raster tooltips on every
// drawn cell, labels that fit a 1024×700 window, and titles and marks that say what is on screen.
// Positions and sizes come from the layout (the panes' axis rects), never from fixed margins.
// With LOOKAHEAD_SCREENSHOTS=DIR the scenes are also saved there as PNGs (resources/screenshots/).
#include "cli/cli_options.h"
#include "dashboard.h"
#include "distance_plot.h"
#include "figure_text.h"
#include "gui/window/main_window.h"
#include "gui/window/run_setup_panel.h"
#include "hit_miss_plot.h"
#include "observed/observed_events.h"
#include "plot_theme.h"
#include "plot_view.h"
#include "qcp.h"
#include "repeat_strip.h"
#include "run/run.h"
#include "run_trace.h"
#include "signal_waits.h"
#include "streams_plot.h"
#include "summary_panel.h"
#include "test_files.h"
#include "text_fit.h"
#include "window_harness.h"

#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

using namespace la;

namespace {

using test::cliOptions;
using test::kWindowTimeoutMs;
using test::runToEnd;
using test::shownAt;
using test::smallRun;
using test::waitIdle;

QCustomPlot* plotOf(const PlotView* view) {
    return view->findChild<QCustomPlot*>();
}

// Tick labels as the next paint will draw them.
QVector<QString> tickLabels(const PlotView* view, QCPAxis* axis) {
    plotOf(view)->replot();
    return axis->tickVectorLabels();
}

void saveScreenshot(QWidget* widget, const QString& name) {
    const QString dir = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS");
    if (dir.isEmpty())
        return;
    for (QCustomPlot* plot : widget->findChildren<QCustomPlot*>())
        plot->replot(); // a queued replot may still be pending
    if (auto* plot = qobject_cast<QCustomPlot*>(widget))
        plot->replot();
    widget->grab().save(dir + QLatin1Char('/') + name);
}

// Positions [first, end) of a sequential scan, one a microsecond, a 4-block read before every fourth.
std::vector<Event> scanEvents(std::uint32_t first, std::uint32_t end) {
    std::vector<Event> events;
    for (std::uint32_t p = first; p < end; ++p) {
        const bool miss = p % 4 == 0;
        if (miss) {
            Event read;
            read.kind = EventKind::ReadStarted;
            read.time_ns = std::int64_t(p) * 1000;
            read.position = p;
            read.block = p;
            read.nblocks = 4;
            events.push_back(read);
        }
        Event consumed;
        consumed.kind = EventKind::Consumed;
        consumed.time_ns = std::int64_t(p) * 1000 + 500;
        consumed.position = p;
        consumed.block = p;
        consumed.distance = static_cast<std::uint16_t>(8 + p % 8);
        consumed.pinned = 4;
        consumed.in_flight = 2;
        consumed.flags = miss ? event_flag::miss : 0;
        events.push_back(consumed);
    }
    return events;
}

// How far along x a pane has drawn its run: the right edge of its colour map's last column holding
// data, or its graphs' last point.
double drawnXEnd(const PlotView* view, std::size_t run) {
    const QCPAxis* x = view->pane(run)->axis(QCPAxis::atBottom);
    QCustomPlot* plot = plotOf(view);
    double end = 0.0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot->plottable(i);
        if (plottable->keyAxis() != x)
            continue;
        if (auto* map = qobject_cast<QCPColorMap*>(plottable)) {
            QCPColorMapData* data = map->data();
            const double cellWidth = data->keyRange().size() / std::max(1, data->keySize() - 1);
            for (int cx = data->keySize() - 1; cx >= 0; --cx) {
                bool drawn = false;
                for (int cy = 0; cy < data->valueSize() && !drawn; ++cy)
                    drawn = !std::isnan(data->cell(cx, cy));
                if (drawn) {
                    double key = 0.0, value = 0.0;
                    data->cellToCoord(cx, 0, &key, &value);
                    end = std::max(end, key + cellWidth / 2);
                    break;
                }
            }
        } else if (auto* graph = qobject_cast<QCPGraph*>(plottable); graph && !graph->data()->isEmpty()) {
            end = std::max(end, (graph->data()->constEnd() - 1)->key);
        }
    }
    return end;
}

} // namespace

class TestGuiViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void startInPositionModeLabelsEveryPane();
    void repeatStripShowsRepeatedRunsOnly();
    void deepZoomTicksTellPositionsApart();
    void distanceAxisIsLog2AndFitsAZoomedCollapse();
    void rasterTooltipsCoverEveryDrawnCell();
    void rasterShowsItIsStillBinning();
    void repeatedAbSaysMediansAndFits();
    void fittedTextBreaksAfterWordsAndEndsInAnEllipsis();
    void exportTableGivesLongValuesTheRoomOthersLeave();
    void sizeHistogramHasLegendLabelsAndTooltip();
    void smallWindowKeepsLabelsInside();
    void statusAndStaleMarkSayWhatIsShown();
    void bSaysItWaitsForA_data();
    void bSaysItWaitsForA();
    void dragStopsAtTheStart();
    void logDistanceAxisLabelsTwo();
    void openedFileSizesTheDatasetLabel();
    void livePanesDrawTheSameTimeRange();
    void kernelCaptureDrawsQueueDepthAndDeviceLayer();
    void verdictBandAndNotesTakeOnlyTheirRoom();
    void distancePaneMarksEveryReset();
    void everyResetOfALongRunIsCounted();
    void planRunDrawsItsShownStreamAndEveryLane();

private:
};

// Shows `runs` and waits until every view has drawn them.
bool settledOn(Dashboard& dashboard, const std::vector<const RunTrace*>& runs) {
    QSignalSpy settled(&dashboard, &Dashboard::settled);
    dashboard.setRuns(runs);
    return test::until(
        settled, [&] { return dashboard.idle(); }, kWindowTimeoutMs);
}

// A run's events straight into its trace, as the window's model thread hands them on.
struct Feed final : EventSink {
    RunTrace& trace;
    explicit Feed(RunTrace& t) : trace(t) {}
    void onEvents(std::span<const Event> batch) override { trace.append(batch); }
};

void TestGuiViews::initTestCase() {
    la::test::useCleanTestSettings();
}

void TestGuiViews::cleanup() {
    QSettings().clear();
}

// "Position axis" ticked, quit, started with an A/B run: B's panes, created after the mode was set,
// used to keep the time ticker ("0 s, 1·10⁴ s" under "position").
void TestGuiViews::startInPositionModeLabelsEveryPane() {
    QSettings().setValue(QStringLiteral("view/positionAxis"), true);
    MainWindow window;
    QVERIFY(shownAt(window, 1400, 1000));
    runToEnd(window, smallRun());
    QCOMPARE(window.dashboard()->xMode(), XAxis::Position);
    for (PlotView* view : window.dashboard()->views()) {
        QCOMPARE(view->paneCount(), std::size_t(2));
        QVERIFY2(!view->shownTitle().contains(QStringLiteral("time")), qPrintable(view->shownTitle()));
        for (std::size_t run = 0; run < view->paneCount(); ++run) {
            QCPAxis* x = view->pane(run)->axis(QCPAxis::atBottom);
            QCOMPARE(x->label(), QStringLiteral("position (buffers handed out)"));
            const QVector<QString> labels = tickLabels(view, x);
            QVERIFY(labels.size() >= 2);
            for (const QString& label : labels)
                QVERIFY2(!label.endsWith(QLatin1Char('s')),
                         qPrintable(view->title() + QStringLiteral(": ") + label));
        }
    }
    saveScreenshot(&window, QStringLiteral("start-in-position-mode.png"));
}

void TestGuiViews::deepZoomTicksTellPositionsApart() {
    MainWindow window;
    window.resize(1400, 1000);
    runToEnd(window, smallRun(32768));
    window.dashboard()->setXMode(XAxis::Position);
    window.dashboard()->zoomTo(23400.0, 23412.0);
    QVERIFY(waitIdle(window));
    for (PlotView* view : window.dashboard()->views()) {
        QCPAxis* x = view->pane(0)->axis(QCPAxis::atBottom);
        const QVector<QString> labels = tickLabels(view, x);
        QVERIFY(labels.size() >= 3);
        const std::set<QString> distinct(labels.begin(), labels.end());
        QVERIFY2(distinct.size() == static_cast<std::size_t>(labels.size()),
                 qPrintable(QStringList(labels.begin(), labels.end()).join(QStringLiteral(", "))));
        // Each label names its tick's own position (a step of 2.5 once put "23403" on 23402.5).
        const QVector<double> ticks = x->tickVector();
        QCOMPARE(ticks.size(), labels.size());
        for (qsizetype i = 0; i < ticks.size(); ++i)
            QCOMPARE(labels[i].toDouble(), ticks[i]);
    }
    // Zoomed out the same: "12.5k" on 12,500 (a whole-thousands label once said "13k").
    window.dashboard()->zoomTo(0.0, 16384.0);
    QVERIFY(waitIdle(window));
    QCPAxis* x = window.dashboard()->views()[1]->pane(0)->axis(QCPAxis::atBottom);
    const QVector<QString> labels = tickLabels(window.dashboard()->views()[1], x);
    const QVector<double> ticks = x->tickVector();
    QCOMPARE(ticks.size(), labels.size());
    for (qsizetype i = 0; i < ticks.size(); ++i) {
        const bool thousands = labels[i].endsWith(QLatin1Char('k'));
        const double value =
            (thousands ? labels[i].chopped(1) : labels[i]).toDouble() * (thousands ? 1e3 : 1.0);
        QCOMPARE(value, ticks[i]);
    }
}

// Zoomed into a pg18 collapse the log2 y axis fits the 1↔2 saw-tooth, drawn as steps between 1 and 2.
void TestGuiViews::distanceAxisIsLog2AndFitsAZoomedCollapse() {
    MainWindow window;
    QVERIFY(shownAt(window, 1400, 1000));
    // A consumer slow enough (20 µs per block) that B's distance settles at 64, below max_pinned: its
    // I/O workers keep up with a miss every 40 µs, so it does not wait and double further.
    runToEnd(window, smallRun() + QStringList{QStringLiteral("--consumer-ns"), QStringLiteral("20000")});
    auto* distance = qobject_cast<DistancePlot*>(window.dashboard()->views()[0]);
    QVERIFY(distance);
    QCPAxis* y = distance->pane(0)->axis(QCPAxis::atLeft);
    QCOMPARE(y->scaleType(), QCPAxis::stLogarithmic);
    const double wholeUpper = y->range().upper;
    QVERIFY2(wholeUpper > 94.0, qPrintable(QString::number(wholeUpper))); // max_pinned shows

    const RunTrace& pg18 = *window.controller().traces()[0];
    QVERIFY(pg18.collapseCount() > 0);
    const CollapseInterval collapse = pg18.collapse(0);
    QVERIFY(collapse.second - collapse.first > 200);
    window.dashboard()->setXMode(XAxis::Position);
    const double lo = static_cast<double>(collapse.first) + 100.0;
    window.dashboard()->zoomTo(lo, lo + 64.0);
    QVERIFY(waitIdle(window));
    // Fitted to what is in view (B's distance of 64 there; A and B keep identical axes), and log2: a
    // step from 1 to 2 is as tall as one from 32 to 64.
    QVERIFY2(y->range().upper < wholeUpper, qPrintable(QString::number(y->range().upper)));
    QVERIFY(y->range().contains(1.0) && y->range().contains(2.0));
    const double stepPixels = y->coordToPixel(1.0) - y->coordToPixel(2.0);
    QVERIFY2(stepPixels >= 12.0, qPrintable(QString::number(stepPixels)));
    QCPGraph* line = nullptr;
    for (int i = 0; i < plotOf(distance)->graphCount(); ++i) {
        QCPGraph* graph = plotOf(distance)->graph(i);
        if (graph->keyAxis() == distance->pane(0)->axis(QCPAxis::atBottom) &&
            graph->name() == QStringLiteral("distance"))
            line = graph;
    }
    QVERIFY(line);
    std::set<double> values;
    int steps = 0;
    double previous = 0.0;
    for (auto it = line->data()->constBegin(); it != line->data()->constEnd(); ++it) {
        values.insert(it->value);
        steps += it != line->data()->constBegin() && it->value != previous;
        previous = it->value;
    }
    QVERIFY2(values.count(1.0) && values.count(2.0), qPrintable(QString::number(values.size())));
    QVERIFY2(steps >= 10, qPrintable(QString::number(steps)));
    saveScreenshot(distance, QStringLiteral("collapse-deep-zoom.png"));
    // The context menu's linear axis: from 0, still fitted to the zoom.
    distance->setLogY(false);
    QVERIFY(waitIdle(window));
    QCOMPARE(y->scaleType(), QCPAxis::stLinear);
    QCOMPARE(y->range().lower, 0.0);
    QVERIFY(y->range().upper < wholeUpper);
}

// Every pixel a raster draws data on answers a hover with that cell's numbers, and no empty pixel
// does, zoomed out (a cell is many blocks) and in (a block is many pixels).
void TestGuiViews::rasterTooltipsCoverEveryDrawnCell() {
    MainWindow window;
    QVERIFY(shownAt(window, 1400, 1000));
    runToEnd(window, smallRun());
    for (const bool zoomed : {false, true}) {
        if (zoomed) {
            window.dashboard()->setXMode(XAxis::Position);
            window.dashboard()->zoomTo(1000.0, 1040.0);
            QVERIFY(waitIdle(window));
        }
        for (std::size_t index : {std::size_t(1), std::size_t(3)}) {
            PlotView* view = window.dashboard()->views()[index];
            plotOf(view)->replot();
            const QImage image = view->grab().toImage();
            QCPAxis* x = view->pane(0)->axis(QCPAxis::atBottom);
            const QRgb background = PlotTheme::fromPalette(view->palette()).background.rgb();
            const std::set<QRgb> lines{x->grid()->pen().color().rgb(), x->tickPen().color().rgb()};
            const QRect area = view->paneArea(0).adjusted(2, 2, -2, -2); // inside the axis lines
            int drawn = 0;
            int silent = 0;
            int spurious = 0;
            for (int py = area.top(); py <= area.bottom(); ++py) {
                for (int px = area.left(); px <= area.right(); px += 3) {
                    const QRgb colour = image.pixel(px, py);
                    if (lines.count(colour))
                        continue;
                    const bool tip = !view->tooltipAt(QPoint(px, py)).isEmpty();
                    if (colour == background) {
                        spurious += tip;
                    } else {
                        ++drawn;
                        silent += !tip;
                    }
                }
            }
            const QString what = view->title() + (zoomed ? QStringLiteral(" (zoomed)") : QString());
            QVERIFY2(drawn > 20, qPrintable(what));
            QVERIFY2(silent == 0, qPrintable(QStringLiteral("%1: %2 of %3 drawn pixels without a tooltip")
                                                 .arg(what)
                                                 .arg(silent)
                                                 .arg(drawn)));
            QVERIFY2(spurious == 0,
                     qPrintable(QStringLiteral("%1: %2 tooltips on empty pixels").arg(what).arg(spurious)));
        }
    }
}

void TestGuiViews::sizeHistogramHasLegendLabelsAndTooltip() {
    MainWindow window;
    QVERIFY(shownAt(window, 1400, 1000));
    runToEnd(window, smallRun());
    PlotView* sizes = window.dashboard()->views()[2];
    QCustomPlot* plot = plotOf(sizes);
    QCPAxisRect* histogram = nullptr;
    for (QCPAxisRect* rect : plot->axisRects())
        if (rect != sizes->pane(0) && rect != sizes->pane(1))
            histogram = rect;
    QVERIFY(histogram);
    QCPAxis* sizeAxis = histogram->axis(QCPAxis::atLeft);
    QVERIFY(sizeAxis->tickLabels());
    QVERIFY(!tickLabels(sizes, sizeAxis).isEmpty());
    QStringList legend;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible())
            legend << text->text();
    QVERIFY2(legend.contains(QStringLiteral("■ A")) && legend.contains(QStringLiteral("■ B")),
             qPrintable(legend.join(QLatin1Char('|'))));
    // Every read of this dataset is one block: hovering over that bar names both runs' counts.
    const QPoint bar(histogram->rect().center().x(), qRound(sizeAxis->coordToPixel(1.0)));
    const QString tip = sizes->tooltipAt(bar);
    QVERIFY2(tip.contains(QStringLiteral("1 block (8 KiB)")) &&
                 tip.contains(QStringLiteral("A: pg18: 4,096 reads")) &&
                 tip.contains(QStringLiteral("B: pg19:")),
             qPrintable(tip));
    // Right of its plot area there is room for the last count label (it used to be cut off).
    QVERIFY(histogram->outerRect().right() - histogram->rect().right() >= 16);
}

// At 1024×700, with the run setup panel collapsed or not, every view keeps its minimum height and the
// distance plot's labels stay whole inside its plot area.
void TestGuiViews::smallWindowKeepsLabelsInside() {
    MainWindow window;
    QVERIFY(shownAt(window, 1024, 700));
    runToEnd(window, smallRun(65536));
    for (PlotView* view : window.dashboard()->views())
        QVERIFY2(view->height() >= view->minimumHeight(), qPrintable(view->title()));
    PlotView* distance = window.dashboard()->views()[0];
    QCustomPlot* plot = plotOf(distance);
    plot->replot();
    QStringList shown;
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(plot->item(i));
        if (!text || !text->visible() || !text->clipToAxisRect())
            continue;
        const QRectF area = text->clipAxisRect()->rect();
        QVERIFY2(area.adjusted(-1, -1, 1, 1).contains(test::itemTextBox(*text)), qPrintable(text->text()));
        shown << text->text();
    }
    const QString all = shown.join(QLatin1Char('|'));
    QVERIFY2(all.contains(QStringLiteral("1↔2")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("max_pinned")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("io_combine_limit")), qPrintable(all));
    saveScreenshot(&window, QStringLiteral("window-1024x700.png"));
}

void TestGuiViews::statusAndStaleMarkSayWhatIsShown() {
    MainWindow window;
    QSignalSpy started(&window.controller(), &RunController::started);
    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.applyStartup(cliOptions(smallRun()));
    window.startRun();
    QCOMPARE(started.count(), 1);
    QVERIFY2(!window.statusBar()->currentMessage().contains(QStringLiteral("Ready")),
             qPrintable(window.statusBar()->currentMessage()));
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(!window.dashboard()->stale());
    RunConfig changed = window.setupPanel()->config();
    changed.stream.ioCombineLimit = 8;
    QCOMPARE(window.setupPanel()->setConfig(changed), QString());
    QVERIFY(window.dashboard()->stale());
    changed.stream.ioCombineLimit = 16;
    QCOMPARE(window.setupPanel()->setConfig(changed), QString());
    QVERIFY(!window.dashboard()->stale());
}

// A pattern over an opened file is sized to the file, and the panel says so (in binary units).
void TestGuiViews::openedFileSizesTheDatasetLabel() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("relation.dat"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(qint64{910} * 8192));
    file.close();
    MainWindow window;
    window.applyStartup(cliOptions(smallRun()));
    const auto described = [&](const QString& text) {
        for (const QLabel* label : window.setupPanel()->findChildren<QLabel*>())
            if (label->text().contains(text))
                return true;
        return false;
    };
    QVERIFY(described(QStringLiteral("8,192 blocks (64 MiB)")));
    RunConfig config = window.setupPanel()->config();
    config.dataset.blocks = 0; // the pattern's size follows the file
    QCOMPARE(window.setupPanel()->setConfig(config), QString());
    window.inputs()->openFile(path);
    QVERIFY(described(QStringLiteral("910 blocks (7.1 MiB)")));
}

// The runs take turns: while A runs, B's panes say that B waits for it, and why as far as it is true
// (real I/O: so that the runs never share the device; simulated runs simply go one after the other),
// and the notes are gone once both have run.
void TestGuiViews::bSaysItWaitsForA_data() {
    QTest::addColumn<QStringList>("io");
    QTest::addColumn<QString>("why");
    QTest::newRow("simulated") << QStringList() << QStringLiteral("the runs go one after the other");
    QTest::newRow("real I/O") << QStringList{QStringLiteral("--io"), QStringLiteral("sync")}
                              << QStringLiteral("so that their real I/O never shares the device");
}

void TestGuiViews::bSaysItWaitsForA() {
    QFETCH(QStringList, io);
    QFETCH(QString, why);
    QTemporaryDir cache;
    QVERIFY(cache.isValid());
    MainWindow window;
    QVERIFY(shownAt(window, 1400, 1000));
    const auto visibleTexts = [&window] {
        QStringList texts;
        QCustomPlot* plot = plotOf(window.dashboard()->views()[0]);
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible())
                texts << text->text();
        return texts.join(QLatin1Char('|')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    };
    QStringList duringA;
    // A's first events put the new runs on screen, while B has not started.
    connect(&window.controller(), &RunController::tracesChanged, &window, [&] {
        if (window.controller().running())
            duringA << visibleTexts();
    });
    runToEnd(window, smallRun(512) + io + QStringList{QStringLiteral("--cache-dir"), cache.path()});
    QCOMPARE(duringA.size(), 1);
    QVERIFY2(duringA.front().contains(QStringLiteral("Waiting for A to finish")),
             qPrintable(duringA.front()));
    QVERIFY2(duringA.front().contains(why), qPrintable(duringA.front()));
    QCOMPARE(duringA.front().contains(QStringLiteral("real I/O")), !io.isEmpty());
    QVERIFY2(!visibleTexts().contains(QStringLiteral("Waiting for A")), qPrintable(visibleTexts()));
}

// Dragging the plots right past the start (time or position 0) stops there: every pane, every view.
void TestGuiViews::dragStopsAtTheStart() {
    MainWindow window;
    QVERIFY(shownAt(window, 1400, 1000));
    runToEnd(window, smallRun());
    PlotView* distance = window.dashboard()->views()[0];
    QCPAxis* x = distance->pane(1)->axis(QCPAxis::atBottom);
    x->setRange(-40.0, 60.0); // as a drag moves it
    for (PlotView* view : window.dashboard()->views())
        for (std::size_t pane = 0; pane < 2; ++pane) {
            const QCPRange range = view->pane(pane)->axis(QCPAxis::atBottom)->range();
            QCOMPARE(range.lower, 0.0);
            QCOMPARE(range.upper, 100.0);
        }
}

// At 1280×720 the log distance axis had only "1, 32": 2, what the collapse is about, is labelled
// wherever it is in view, over the whole run and zoomed deep into A's collapse.
void TestGuiViews::logDistanceAxisLabelsTwo() {
    MainWindow window;
    QVERIFY(shownAt(window, 1280, 720));
    runToEnd(window, smallRun());
    PlotView* distance = window.dashboard()->views()[0];
    const auto verifyTwoLabelled = [distance] {
        for (std::size_t pane = 0; pane < 2; ++pane) {
            const QVector<QString> labels = tickLabels(distance, distance->pane(pane)->axis(QCPAxis::atLeft));
            QVERIFY2(labels.contains(QStringLiteral("2")),
                     qPrintable(QStringList(labels.begin(), labels.end()).join(u',')));
        }
    };
    verifyTwoLabelled();

    const RunTrace& pg18 = *window.controller().traces()[0];
    QVERIFY(pg18.collapseCount() > 0);
    const CollapseInterval collapse = pg18.collapse(0);
    window.dashboard()->setXMode(XAxis::Position);
    const double lo = static_cast<double>(collapse.first) + 100.0;
    window.dashboard()->zoomTo(lo, lo + 64.0);
    QVERIFY(waitIdle(window));
    QCOMPARE(distance->pane(0)->axis(QCPAxis::atBottom)->range().lower, lo);
    verifyTwoLabelled();
    saveScreenshot(&window, QStringLiteral("window-1280x720-deep-zoom.png"));
}

// An observed run from a kernel capture: the program's 16-block reads, and beside them the device's
// reads, two at a time in flight, every other one the kernel's read-ahead. The distance pane draws
// the device's queue depth instead of its "not in a trace" note; the I/O sizes pane draws the
// device's reads under the reads, read-ahead apart, with their legend.
void TestGuiViews::kernelCaptureDrawsQueueDepthAndDeviceLayer() {
    ObservedTrace observed;
    observed.format = TraceFormat::Kernel;
    observed.processes = {1};
    observed.hasDurations = true;
    for (std::uint32_t i = 0; i < 64; ++i) {
        observed.reads.push_back({std::int64_t(i) * 100'000, 20'000, i * 16, 16, 0, ReadSource::Device});
        observed.deviceReads.push_back({std::int64_t(i) * 100'000 + 1'000, 150'000, i * 16, 32, i % 2 == 1});
    }
    RunTrace trace("A");
    trace.markObserved();
    Feed feed(trace);
    EventSink* sinks[] = {&feed};
    emitObservedEvents(observed, sinks);
    QCOMPARE(trace.device().reads().size(), std::size_t(64));

    Dashboard dashboard;
    QVERIFY(shownAt(dashboard, 1280, 720));
    QSignalSpy settled(&dashboard, &Dashboard::settled);
    dashboard.setRuns({&trace});
    QVERIFY(test::until(
        settled, [&] { return dashboard.idle(); }, kWindowTimeoutMs));
    const auto graphNamed = [](PlotView* view, const QString& name) -> QCPGraph* {
        QCustomPlot* plot = plotOf(view);
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->name() == name)
                return plot->graph(i);
        return nullptr;
    };
    PlotView* distance = dashboard.views()[0];
    QCPGraph* depth = graphNamed(distance, QStringLiteral("device queue depth"));
    QVERIFY(depth && depth->visible() && !depth->data()->isEmpty());
    double highest = 0.0;
    for (auto it = depth->data()->constBegin(); it != depth->data()->constEnd(); ++it)
        highest = std::max(highest, it->value);
    QCOMPARE(highest, 2.0); // each device read lasts 150 µs, one starts every 100 µs
    QVERIFY(plotOf(distance)->legend->hasItemWithPlottable(depth));
    QStringList texts;
    for (PlotView* view : {distance, dashboard.views()[2]})
        for (int i = 0; i < plotOf(view)->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plotOf(view)->item(i)); text && text->visible())
                texts << text->text();
    QVERIFY2(!texts.join(QLatin1Char('|')).contains(QStringLiteral("does not show the read-ahead distance")),
             qPrintable(texts.join(QLatin1Char('|'))));
    QVERIFY2(texts.contains(QStringLiteral("○ device read")) &&
                 texts.contains(QStringLiteral("○ kernel read-ahead")),
             qPrintable(texts.join(QLatin1Char('|'))));
    // The device layer: two graphs under the reads with marks at 32 blocks, one of them read-ahead.
    QCustomPlot* sizes = plotOf(dashboard.views()[2]);
    int layers = 0;
    for (int i = 0; i < sizes->graphCount(); ++i) {
        QCPGraph* graph = sizes->graph(i);
        if (!graph->visible() || graph->data()->isEmpty())
            continue;
        bool all32 = true;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            all32 = all32 && it->value == 32.0;
        layers += all32 ? 1 : 0;
    }
    QCOMPARE(layers, 2);
}

// A single run without a verdict has no empty verdict band above the plots; a comparison keeps one
// for the verdict to come. The notes list is as high as its first four notes, each whole (wrapped
// over lines: tst_gui_plan) and in full in its tooltip.
void TestGuiViews::verdictBandAndNotesTakeOnlyTheirRoom() {
    Dashboard dashboard;
    const QLabel* verdict = dashboard.verdictLabel();
    QVERIFY(verdict->isHidden());
    RunTrace a("A"), b("B");
    dashboard.setRuns({&a});
    QVERIFY(verdict->isHidden());
    dashboard.setRuns({&a, &b});
    QVERIFY(!verdict->isHidden());
    dashboard.setRuns({&a});
    dashboard.setVerdict(QStringLiteral("a recording's verdict"));
    QVERIFY(!verdict->isHidden());

    auto* notes = dashboard.findChild<QListWidget*>(QStringLiteral("notesList"));
    QVERIFY(notes);
    QStringList given;
    for (int i = 1; i <= 6; ++i) {
        given << QStringLiteral("note %1: ").arg(i) + QString(300, QLatin1Char('x'));
        dashboard.setNotes(given);
        int height = 2 * notes->frameWidth();
        for (int row = 0; row < std::min(i, 4); ++row)
            height += notes->visualRect(notes->model()->index(row, 0)).height();
        QVERIFY(!notes->isHidden());
        QCOMPARE(notes->height(), height);
        QCOMPARE(notes->item(i - 1)->text(), given.back());
        QCOMPARE(notes->item(i - 1)->toolTip(), given.back());
    }
}

// A nested loop's inner scan, A as PostgreSQL 19 resets it and B with the distance restored: each
// reset is a mark in its run's colour across the distance pane, the pane says how many and the
// legend what they are; a mark's tooltip names it. Many resets close together become a rug of ticks
// along the top, each run's still all counted; a run without one draws none.
void TestGuiViews::distancePaneMarksEveryReset() {
    QTemporaryDir dir;
    const auto blockList = [&dir](const QString& name, std::uint32_t rows, std::uint32_t visits) {
        const QString path = dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return QString();
        for (std::uint32_t row = 0; row < rows; ++row) {
            if (row > 0)
                file.write("reset\n");
            for (std::uint32_t visit = 0; visit < visits; ++visit)
                file.write(QByteArray::number((row * 7919 + 3 * visit) % 5000) + '\n');
        }
        return path;
    };
    const auto run = [](const QString& list, bool restore, RunTrace& trace) {
        RunConfig config;
        config.blockList = list.toStdString();
        config.relationBlocks = 5000;
        config.stream.restoreAfterReset = restore;
        Feed feed(trace);
        RunCallbacks callbacks;
        callbacks.sinks = {&feed};
        const RunSummary summary = runScan(config, "pg19", callbacks);
        trace.setSummary(summary);
        return summary.resets;
    };

    for (const auto& [rows, visits] : {std::pair<std::uint32_t, std::uint32_t>{4, 100}, {300, 8}}) {
        const QString list = blockList(QStringLiteral("rows%1.txt").arg(rows), rows, visits);
        QVERIFY(!list.isEmpty());
        RunTrace a("pg19"), b("pg19 + restore after reset");
        const std::uint64_t resets[] = {run(list, false, a), run(list, true, b)};
        QCOMPARE(resets[0], std::uint64_t(rows - 1));
        QCOMPARE(resets[1], std::uint64_t(rows - 1));

        Dashboard dashboard;
        QVERIFY(shownAt(dashboard, 1400, 800));
        QSignalSpy settled(&dashboard, &Dashboard::settled);
        dashboard.setRuns({&a, &b});
        QVERIFY(test::until(
            settled, [&] { return dashboard.idle(); }, kWindowTimeoutMs));
        auto* distance = qobject_cast<DistancePlot*>(dashboard.views()[0]);
        QVERIFY(distance);
        QCustomPlot* plot = plotOf(distance);
        plot->replot();
        QStringList legend;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
                legend << item->plottable()->name();
        for (std::size_t pane = 0; pane < 2; ++pane) {
            QCOMPARE(distance->resetsMarked(pane), resets[pane]);
            const QString caption = QStringLiteral("%1 resets (rescans)").arg(resets[pane]);
            QCOMPARE(distance->resetCaption(pane), caption);
            QString shown;
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible())
                    shown += text->text() + QLatin1Char('|');
            QVERIFY2(shown.contains(caption), qPrintable(shown));
            QVERIFY2(legend.contains(
                         QStringLiteral("%1 reset (rescan)").arg(QChar(QLatin1Char(pane ? 'B' : 'A')))),
                     qPrintable(legend.join(QLatin1Char('|'))));
        }
        // Four rows: three marks apart, each with its tooltip. 300 short rows: resets that share a
        // pixel column share its mark, and the marks are a rug rather than a wall of lines.
        QCPAxis* x = distance->pane(0)->axis(QCPAxis::atBottom);
        QCPGraph* marks = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->name() == QStringLiteral("A reset (rescan)"))
                marks = plot->graph(i);
        QVERIFY(marks);
        if (rows == 4) {
            QCOMPARE(distance->resetMarks(0), std::size_t(3));
            QCOMPARE(marks->data()->size(), 9); // bottom, top and a break for each
            const double markX = marks->data()->at(0)->key;
            const QPoint at = plot->mapTo(
                distance, QPoint(qRound(x->coordToPixel(markX)), distance->pane(0)->rect().center().y()));
            const QString tip = distance->tooltipAt(at);
            QVERIFY2(tip.contains(QStringLiteral("reset (rescan) before position")), qPrintable(tip));
            QCOMPARE(marks->data()->at(0)->value, distance->pane(0)->axis(QCPAxis::atLeft)->range().lower);
        } else {
            QVERIFY(distance->resetMarks(0) <= resets[0]);
            const QCPRange y = distance->pane(0)->axis(QCPAxis::atLeft)->range();
            QVERIFY(marks->data()->at(0)->value > y.lower); // a tick under the top, not a full line
            QCOMPARE(marks->data()->at(1)->value, y.upper);
        }
        saveScreenshot(distance, QStringLiteral("reset-marks-%1.png").arg(rows));

        // The same visits without a reset marked: no marks, no caption, no legend entry.
        RunTrace plain("pg19");
        QCOMPARE(run(blockList(QStringLiteral("plain%1.txt").arg(rows), 1, visits * rows), false, plain),
                 std::uint64_t(0));
        dashboard.setRuns({&plain});
        QVERIFY(test::until(
            settled, [&] { return dashboard.idle(); }, kWindowTimeoutMs));
        QCOMPARE(distance->resetsMarked(0), std::uint64_t(0));
        QCOMPARE(distance->resetMarks(0), std::size_t(0));
        QVERIFY(distance->resetCaption(0).isEmpty());
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
                QVERIFY(!item->plottable()->name().contains(QStringLiteral("reset")));
    }
}

// A reset at every block of a long run (--reset-every 1): the resets are kept on disk with the
// exact columns and every one is still counted by the marks, over the whole run and in a zoom.
// A plan run (docs/plan-runs.md): a nested loop's outer scan (stream 0) and its inner scan (stream 1),
// reset at every outer row. The views draw the stream chosen, the inner one, alone; the streams' view
// shows both, taking turns over the run, and only while the runs have several streams.
void TestGuiViews::planRunDrawsItsShownStreamAndEveryLane() {
    QTemporaryDir dir;
    QByteArray text;
    for (int outer = 0; outer < 20; ++outer) {
        text += "stream 0\n" + QByteArray::number(outer) + "\nstream 1\n";
        for (int row = 0; row < 5; ++row)
            text += test::blockLines(1000 + (outer * 53 + row * 7) % 900,
                                     1000 + (outer * 53 + row * 7) % 900 + 4) +
                    "reset\n";
    }
    RunConfig config;
    config.blockList = test::writeFile(dir.filePath(QStringLiteral("loop.txt")), text).toStdString();
    config.shownStream = 1;
    RunTrace inner("pg19", RunLimits{94, 16, 32, 0, 1});
    Feed feed(inner);
    RunCallbacks callbacks;
    callbacks.sinks = {&feed};
    const RunSummary summary = runScan(config, "pg19", callbacks);
    inner.setSummary(summary);
    QCOMPARE(summary.streams.size(), std::size_t(2));
    // The inner stream's buffers and resets are the trace's; the outer one's are a lane of its own.
    QCOMPARE(inner.positions(), summary.streams[1].blocks);
    QCOMPARE(inner.positions(), std::uint64_t(400));
    QCOMPARE(inner.resets(), std::size_t(summary.streams[1].resets));
    QCOMPARE(inner.streams(), std::size_t(2));
    QVERIFY(inner.streamState(0) && inner.streamState(0)->positions() == 20);
    QCOMPARE(inner.streamState(1), &inner.state());

    Dashboard dashboard;
    QVERIFY(shownAt(dashboard, 1400, 900));
    QVERIFY(settledOn(dashboard, {&inner}));
    auto* streams = qobject_cast<StreamsPlot*>(dashboard.views().back());
    QVERIFY(streams && !streams->isHidden() && streams->hasStreams());
    // Shown once the runs have several streams, it takes its share of the height: as much as the hits
    // and misses, whose share is the same.
    QCOMPARE(streams->paneArea(0).height(), dashboard.views()[1]->paneArea(0).height());
    const std::vector<StreamsPlot::Lane>& lanes = streams->lanes(0);
    QCOMPARE(lanes.size(), std::size_t(2));
    for (const StreamsPlot::Lane& lane : lanes)
        QVERIFY(lane.x.size() > 10);
    // Taking turns: each stream has buffers before the other's last and after the other's first.
    QVERIFY(lanes[0].x.front() < lanes[1].x.back() && lanes[1].x.front() < lanes[0].x.back());
    QVERIFY2(streams->tooltipAt(streams->paneArea(0).center()).startsWith(QLatin1String("stream ")),
             qPrintable(streams->tooltipAt(streams->paneArea(0).center())));
    std::vector<std::vector<QRect>> panes;
    dashboard.renderImage(QSize(1200, 1000), 1.0, QStringLiteral("plan"), -1, &panes);
    QCOMPARE(panes.size(), dashboard.views().size());

    // A run of one stream: the view goes.
    RunConfig single;
    single.blockList =
        test::writeFile(dir.filePath(QStringLiteral("one.txt")), test::blockLines(0, 100)).toStdString();
    RunTrace one("pg19");
    Feed oneFeed(one);
    callbacks.sinks = {&oneFeed};
    one.setSummary(runScan(single, "pg19", callbacks));
    QVERIFY(settledOn(dashboard, {&one}));
    QVERIFY(streams->isHidden());
}

void TestGuiViews::everyResetOfALongRunIsCounted() {
    constexpr std::uint32_t kBlocks = 200'000; // three chunks of resets and more
    QTemporaryDir spill;
    RunTrace trace("pg19");
    trace.spillTo(spill.path().toStdString());
    std::vector<Event> events = scanEvents(0, kBlocks);
    std::vector<Event> withResets;
    withResets.reserve(events.size() * 2);
    for (const Event& event : events) {
        if (event.kind == EventKind::Consumed && event.position > 0) {
            Event reset = event;
            reset.kind = EventKind::Reset;
            reset.distance = 1;
            withResets.push_back(reset);
        }
        withResets.push_back(event);
    }
    trace.append(withResets);
    QCOMPARE(trace.resets(), std::size_t(kBlocks - 1));
    QVERIFY(trace.spilledBytes() > 0);

    Dashboard dashboard;
    QVERIFY(shownAt(dashboard, 1200, 800));
    QSignalSpy settled(&dashboard, &Dashboard::settled);
    dashboard.setXMode(XAxis::Position);
    dashboard.setRuns({&trace});
    QVERIFY(test::until(
        settled, [&] { return dashboard.idle(); }, kWindowTimeoutMs));
    auto* distance = qobject_cast<DistancePlot*>(dashboard.views()[0]);
    QCOMPARE(distance->resetsMarked(0), std::uint64_t(kBlocks - 1));
    QVERIFY(distance->resetMarks(0) <= std::size_t(distance->pane(0)->width() * 4));
    QCOMPARE(distance->resetCaption(0), QStringLiteral("199,999 resets (rescans)"));
    // Positions 100,000 to 100,050 in view, both ends included: the resets before each of them.
    dashboard.zoomTo(100'000.0, 100'050.0);
    QVERIFY(test::until(
        settled, [&] { return dashboard.idle(); }, kWindowTimeoutMs));
    QCOMPARE(distance->resetsMarked(0), std::uint64_t(51));
    QCOMPARE(distance->resetMarks(0), std::size_t(51));
}

QTEST_MAIN(TestGuiViews)
// The strip under the summary (docs/repeats.md): a row per repeated run with each repeat's run time
// and its median repeat; hidden while no run was repeated.
void TestGuiViews::repeatStripShowsRepeatedRunsOnly() {
    RunSummary once;
    once.runtimeNs = 5'000'000;
    RunSummary repeated;
    for (const std::int64_t ms : {30, 10, 20}) {
        RunSummary repeat;
        repeat.runtimeNs = ms * 1'000'000;
        repeated.repeats.push_back(repeat);
    }
    const std::vector<RepeatStripRow> rows =
        repeatStripRows({&once, &repeated, nullptr}, {QStringLiteral("A: pg18"), QStringLiteral("B: pg19")});
    QCOMPARE(rows.size(), std::size_t(1));
    QCOMPARE(rows[0].label, QStringLiteral("B: pg19"));
    QCOMPARE(rows[0].seconds, std::vector<double>({0.03, 0.01, 0.02}));
    QCOMPARE(rows[0].median, std::size_t(2));
    RepeatStrip strip;
    strip.setRows(rows);
    QVERIFY(!strip.isHidden());
    QVERIFY(!strip.grab().isNull());
    strip.setRows(repeatStripRows({&once}, {QStringLiteral("A: pg18")}));
    QVERIFY(strip.isHidden());
}

#include "tst_gui_views.moc"

// A live run arriving in batches, each followed by a single refresh with no time to spare (one chunk
// of binning per pane, whatever the machine's speed): every pane has drawn up to the newest data after
// each batch, though the time axis doubled many times and the block axis too; once the run is over
// and the axes fit it exactly, still all four. (When the axis grew, the rasters used to bin every
// event again from the start and lagged far behind the distance pane.)
void TestGuiViews::livePanesDrawTheSameTimeRange() {
    Dashboard dashboard;
    QVERIFY(shownAt(dashboard, 1280, 720));
    RunTrace trace("A");
    dashboard.setRuns({&trace});
    dashboard.setLive(true);
    constexpr std::uint32_t kBatch = 1024;  // what one chunk of binning takes in
    constexpr std::uint32_t kBatches = 320; // 320 k positions
    const auto agree = [&](const QString& when) {
        const double dataEnd = xEnd(trace, XAxis::Time);
        for (PlotView* view : dashboard.views()) {
            if (view->isHidden()) // the streams' view, of a run of one stream
                continue;
            const QCPAxis* x = view->pane(0)->axis(QCPAxis::atBottom);
            const double column = x->range().size() / view->paneArea(0).width();
            const double drawn = drawnXEnd(view, 0);
            QVERIFY2(drawn >= dataEnd - 2 * column && drawn <= dataEnd + 2 * column,
                     qPrintable(QStringLiteral("%1: %2 drawn to %3 s of %4 s")
                                    .arg(when, view->title())
                                    .arg(drawn)
                                    .arg(dataEnd)));
        }
    };
    double lastAxisEnd = 0.0;
    int axisGrew = 0;
    for (std::uint32_t batch = 0; batch < kBatches; ++batch) {
        trace.append(scanEvents(batch * kBatch, (batch + 1) * kBatch));
        dashboard.dataChanged();
        for (PlotView* view : dashboard.views())
            view->refresh(std::chrono::steady_clock::time_point{});
        axisGrew += dashboard.views().front()->xHi() > lastAxisEnd;
        lastAxisEnd = dashboard.views().front()->xHi();
        agree(QStringLiteral("batch %1").arg(batch));
    }
    QVERIFY2(axisGrew >= 4, qPrintable(QString::number(axisGrew)));
    QSignalSpy settled(&dashboard, &Dashboard::settled);
    dashboard.setLive(false);
    QVERIFY(test::until(
        settled, [&] { return dashboard.idle(); }, kWindowTimeoutMs));
    agree(QStringLiteral("after the run"));
}

// After Reset zoom on a long run the hit/miss raster bins for a while: it keeps the image of the zoom
// it had, drawn where it belongs on the new axis (its map keeps its own range), and a thin line across
// the top of the pane says how far the new one is; once binned, the new image replaces it and the line
// goes. (It showed a blank or half-drawn raster with no sign, seconds behind the other panes.)
void TestGuiViews::rasterShowsItIsStillBinning() {
    Dashboard dashboard;
    QVERIFY(shownAt(dashboard, 1280, 720));
    RunTrace trace("A");
    trace.append(scanEvents(0, 400'000));
    dashboard.setRuns({&trace});
    auto* raster = qobject_cast<HitMissPlot*>(dashboard.views()[1]);
    QVERIFY(raster);
    const auto mapRange = [&] {
        QCustomPlot* plot = plotOf(raster);
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i)))
                return map->data()->keyRange();
        return QCPRange();
    };
    const auto settle = [&] {
        for (PlotView* view : dashboard.views())
            QVERIFY(view->refresh(std::chrono::steady_clock::time_point::max()));
    };
    settle();
    QVERIFY(!raster->binningShown(0));
    const double end = raster->xHi();
    dashboard.zoomTo(end * 0.40, end * 0.41);
    settle();
    const QCPRange zoomed = mapRange();
    QVERIFY2(zoomed.lower >= end * 0.40 && zoomed.upper <= end * 0.41,
             qPrintable(QString::number(zoomed.upper)));
    QVERIFY(!raster->binningShown(0));

    dashboard.resetZoom();
    // One chunk of binning, then the frame: far from all of 400 k positions.
    QVERIFY(!raster->refresh(std::chrono::steady_clock::time_point{}));
    QVERIFY(raster->binningShown(0));
    QCOMPARE(mapRange(), zoomed); // the old image stands, at its place
    QCOMPARE(raster->xHi(), end);
    saveScreenshot(raster, QStringLiteral("raster-still-binning.png"));
    settle();
    QVERIFY(!raster->binningShown(0));
    QVERIFY2(mapRange().lower < end * 0.01 && mapRange().upper > end * 0.99,
             qPrintable(QStringLiteral("%1–%2 of %3").arg(mapRange().lower).arg(mapRange().upper).arg(end)));
}

// A repeated A/B with real I/O: the summary table and the verdict give the same figure for the
// varying ones, the medians over the repeats, and say so; every text of the window and of its exports
// fits at 1280×720 and 1600×1000 (whole, or "…" with the whole in a tooltip or the metadata).
void TestGuiViews::repeatedAbSaysMediansAndFits() {
    QTemporaryDir cache;
    QVERIFY(cache.isValid());
    MainWindow window;
    QVERIFY(shownAt(window, 1600, 1000));
    runToEnd(window, smallRun(2048) + QStringList{QStringLiteral("--io"), QStringLiteral("sync"),
                                                  QStringLiteral("--repeat"), QStringLiteral("5"),
                                                  QStringLiteral("--cache-dir"), cache.path()});
    const std::vector<RunSummary> runs = window.controller().summaries();
    QCOMPARE(runs.size(), std::size_t(2));
    QCOMPARE(runs[0].repeats.size(), std::size_t(5));
    const std::vector<SummaryRow> rows = window.dashboard()->summaryPanel()->rows();
    const auto row = [&rows](const QString& label) {
        const auto it =
            std::find_if(rows.begin(), rows.end(), [&](const SummaryRow& r) { return r.label == label; });
        return it == rows.end() ? QStringList() : QStringList(it->values.begin(), it->values.end());
    };
    const QString verdict = window.dashboard()->verdict();
    for (std::size_t run = 0; run < 2; ++run) {
        QVERIFY2(row(QStringLiteral("Run time")).value(int(run)).startsWith(QStringLiteral("median ")),
                 qPrintable(row(QStringLiteral("Run time")).join(QLatin1Char('|'))));
        const QString waits = medianText(runs[run], "waits");
        QVERIFY2(row(QStringLiteral("Waits (time)"))
                     .value(int(run))
                     .startsWith(QStringLiteral("median ") + waits + QLatin1Char(' ')),
                 qPrintable(row(QStringLiteral("Waits (time)")).join(QLatin1Char('|'))));
    }
    if (verdict.contains(QStringLiteral("waits")))
        QVERIFY2(verdict.contains(QStringLiteral("median waits %1 → %2")
                                      .arg(medianText(runs[0], "waits"), medianText(runs[1], "waits"))),
                 qPrintable(verdict));
    QTemporaryDir exports; // apart from the dataset cache: an export never goes where inputs are
    QVERIFY(exports.isValid());
    test::checkNothingClipped(window, exports.path(), QStringLiteral("repeated-ab"));
}

// The lines a text is drawn in: after words, never past the width, at most as many as asked, the last
// ending in "…" after a word when the text needs more; "I/O-bound" stays whole.
// The export's summary table, in halves side by side: EXPLAIN's long lines in the second half take
// the room the short values of the first leave, whole where every text fits the width (at 1600 px
// they were cut in a column as wide as the first half's); where not all fit, the short ones stay
// whole and only the longest is cut.
void TestGuiViews::exportTableGivesLongValuesTheRoomOthersLeave() {
    const QStringList headers{QString(), QStringLiteral("A: pg18"), QStringLiteral("B: pg19")};
    std::vector<SummaryRow> rows;
    for (int i = 0; i < 8; ++i)
        rows.push_back(
            {QStringLiteral("Figure %1").arg(i), {QStringLiteral("4,096"), QStringLiteral("6")}, {}});
    for (int i = 0; i < 8; ++i)
        rows.push_back({QStringLiteral("max_pinned / io_combine_limit %1").arg(i),
                        {QStringLiteral("count=4096 waits=4096 size=1.00 in-progress=1.00"),
                         QStringLiteral("count=4096 waits=6 size=1.00 in-progress=3.99")},
                        {}});
    for (const TableCell& cell : layoutSummaryTable(QRectF(0.0, 0.0, 1600.0, 400.0), headers, rows))
        QCOMPARE(cell.shown, cell.whole);

    rows.back().values.front() =
        QStringLiteral("546 (5.258 ms): ") + QString(QStringLiteral("waited ")).repeated(60);
    std::size_t cut = 0;
    for (const TableCell& cell : layoutSummaryTable(QRectF(0.0, 0.0, 1600.0, 400.0), headers, rows)) {
        QVERIFY2(test::wholeOrElided(cell.shown, cell.whole), qPrintable(cell.shown));
        cut += cell.shown != cell.whole ? 1 : 0;
        if (cell.shown != cell.whole)
            QCOMPARE(cell.whole, rows.back().values.front());
    }
    QCOMPARE(cut, std::size_t(1));
}

void TestGuiViews::fittedTextBreaksAfterWordsAndEndsInAnEllipsis() {
    QFont font;
    font.setPixelSize(12);
    const QFontMetricsF metrics(font);
    const QString verdict = QStringLiteral(
        "B (pg19): 2,778 → 177 reads, 1.70× faster; A I/O-bound (waited 41 % of the time, distance ≤ 2 for "
        "98 % of blocks), B consumer-bound (waited 2 %)");
    for (const double width : {120.0, 200.0, 333.0, 1000.0}) {
        for (const int most : {1, 2, 3, 20}) {
            const FittedText fitted = fitLines(verdict, font, width, most);
            const QString at =
                QStringLiteral("%1 px, %2 lines: %3").arg(width).arg(most).arg(fitted.lines.join(u'|'));
            QVERIFY2(!fitted.lines.isEmpty() && fitted.lines.size() <= most, qPrintable(at));
            for (const QString& line : fitted.lines) {
                QVERIFY2(metrics.horizontalAdvance(line) <= width, qPrintable(at));
                QVERIFY2(!line.endsWith(QStringLiteral("I/")), qPrintable(at));
            }
            const QString shown = fitted.lines.join(QLatin1Char(' '));
            QCOMPARE(fitted.elided, shown.endsWith(QStringLiteral("…")));
            QVERIFY2(test::wholeOrElided(shown, verdict), qPrintable(at));
            if (fitted.elided)
                QVERIFY2(fitted.lines.back().endsWith(QStringLiteral(" …")), qPrintable(at)); // after a word
        }
    }
    QCOMPARE(fitLines(verdict, font, 1000.0, 20).lines.join(QLatin1Char(' ')), verdict);
    // A word longer than the line (a path) is cut inside it.
    const QString path = QStringLiteral("/var/lib/postgresql/15/main/base/16384/1234567890");
    const FittedText cut = fitLines(path, font, 100.0, 1);
    QVERIFY(cut.elided && cut.lines.front().endsWith(QStringLiteral("…")));
    QVERIFY(metrics.horizontalAdvance(cut.lines.front()) <= 100.0);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The window on CF 7035's backward combining (docs/read-stream-model.md §15.7): a reversed range is read
// whole before its first buffer is handed out and nothing is read while it is handed back, so with one
// read in flight and a consumer slower than a read, the forward scan hardly waits while the backward
// scan waits once per range. The hit/miss pane shows it: zoomed in, B's first buffer of each range is
// drawn as waited, A's blocks are not. With LOOKAHEAD_SCREENSHOTS=DIR the zoomed window is saved there.
#include "dashboard.h"
#include "plot_view.h"
#include "qcp.h"
#include "run_trace.h"
#include "window_harness.h"

#include <QStandardPaths>
#include <QTest>

using namespace la;

namespace {

// Runs of neighbouring columns of a pane's hit/miss raster (the colour map on run `run`'s axes) that
// hold a waited block: a waited block is drawn darker than a miss (a cell's value above 1).
int waitedColumnGroups(PlotView* view, std::size_t run) {
    QCustomPlot* plot = view->findChild<QCustomPlot*>();
    const QCPAxis* x = view->pane(run)->axis(QCPAxis::atBottom);
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i));
        if (map == nullptr || map->keyAxis() != x)
            continue;
        QCPColorMapData* data = map->data();
        int groups = 0;
        bool inGroup = false;
        for (int cx = 0; cx < data->keySize(); ++cx) {
            bool waited = false;
            for (int cy = 0; cy < data->valueSize() && !waited; ++cy)
                waited = data->cell(cx, cy) > 1.0;
            groups += waited && !inGroup;
            inGroup = waited;
        }
        return groups;
    }
    return -1;
}

} // namespace

class TestGuiBackward : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void waitPerReversedRange();
};

void TestGuiBackward::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("LookaheadTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_gui_backward"));
}

void TestGuiBackward::waitPerReversedRange() {
    MainWindow window;
    QVERIFY(test::shownAt(window, 1400, 1000));
    // 16-block reads of 396 µs on the default device against 16 × 30 µs of consumption.
    test::runToEnd(window,
                   {QStringLiteral("--dataset"), QStringLiteral("seq"), QStringLiteral("--pattern-blocks"),
                    QStringLiteral("2048"), QStringLiteral("--policy"), QStringLiteral("cf7035"),
                    QStringLiteral("--compare-direction"), QStringLiteral("--eic"), QStringLiteral("1"),
                    QStringLiteral("--stream-flags"), QStringLiteral("full"), QStringLiteral("--consumer-ns"),
                    QStringLiteral("30000")});
    const RunTrace& backward = *window.controller().traces()[1];
    QVERIFY(backward.summary());
    QCOMPARE(backward.summary()->reversedRanges, 128ull);

    // Ten ranges: positions 800 to 959 hand out blocks 1247 down to 1088.
    window.dashboard()->setXMode(XAxis::Position);
    window.dashboard()->zoomTo(800.0, 960.0);
    QVERIFY(test::waitIdle(window));
    PlotView* hitMiss = window.dashboard()->views()[1];
    if (const QString dir = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !dir.isEmpty()) {
        for (QCustomPlot* each : window.findChildren<QCustomPlot*>())
            each->replot();
        window.grab().save(dir + QStringLiteral("/backward-reversed-ranges-zoomed.png"));
    }
    const int forwardWaits = waitedColumnGroups(hitMiss, 0);
    const int backwardWaits = waitedColumnGroups(hitMiss, 1);
    QCOMPARE(forwardWaits, 0);
    QCOMPARE(backwardWaits, 10);
}

QTEST_MAIN(TestGuiBackward)
#include "tst_gui_backward.moc"

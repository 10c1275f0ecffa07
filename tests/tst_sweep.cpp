// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps (docs/sweeps.md): results that do not depend on --jobs, the same CSV from commands spread by
// xargs and merged, the collapse map's cells, maps that are drawn, and every kind of bad input.
#include "child_process.h"
#include "cli_process.h"
#include "experiment/summary_json.h"
#include "files/held_directory.h"
#include "gui/dialogs/sweep_window.h"
#include "gui/jobs/run_controller.h"
#include "gui/window/main_window.h"
#include "gui/window/run_setup_panel.h"
#include "input_error.h"
#include "qcp.h"
#include "render/sweep_maps.h"
#include "run.h"
#include "sweep/sweep_commands.h"
#include "sweep/sweep_runner.h"
#include "sweep_map_view.h"
#include "test_files.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cmath>

using namespace la;

namespace {

using la::test::readFile;

const char* const kSmallSpec = R"({"schema": "lookahead.sweep/1", "name": "small",
 "base": {"dataset": "seq", "pattern-blocks": 4000},
 "axes": [{"option": "miss-fraction", "values": [2, 6, 20]},
          {"option": "miss-spacing", "values": ["even", "runs:8"]}],
 "policies": ["pg18", "adaptive@pg18"]})";

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    return la::test::writeFile(dir.filePath(name), text);
}

using Result = test::CliResult;

Result run(const QStringList& args) {
    return test::runLookahead(args, 300'000);
}

// The error loadSweepSpec() gives for a spec text, or empty if it loads.
QString specError(const QTemporaryDir& dir, const QByteArray& text, bool force = false) {
    const QString path = writeFile(dir, QStringLiteral("bad.json"), text);
    try {
        loadSweepSpec(path.toStdString(), force);
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT
private slots:
    void jobsDoNotChangeTheResults();
    void commandsThroughXargsMergeToTheSameCsv();
    void collapseMapCellsShowTheTrap();
    void mapsAreDrawnPerMetricAndPolicy();
    void hoverAndClickFindTheCell();
    void badSpecsAreRefusedByName();
    void badMergeDirectoriesAreRefused();
    void cancelledSweepWritesNothing();
    void sweepViewRunsAndOpensACell();
    void sweepViewCancelsItsSetUp();
    void sweepThisRunKeepsItsVisits();
    void cellsWithinNoiseAreMarked();
};

void TestSweep::jobsDoNotChangeTheResults() {
    QTemporaryDir dir;
    const std::string spec = writeFile(dir, QStringLiteral("s.json"), kSmallSpec).toStdString();
    const SweepSpec loaded = loadSweepSpec(spec, false);
    QCOMPARE(loaded.cells(), std::uint64_t(6));
    const SweepResults one = runSweep(loaded, 1, nullptr, {});
    const SweepResults two = runSweep(loaded, 2, nullptr, {});
    QVERIFY(one.complete() && two.complete());
    const std::string csv = sweepCsv(one);
    QCOMPARE(sweepCsv(two), csv);
    // 6 cells x 2 policies and a header; each row's reads are the cell's misses merged into runs.
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 13);
    QCOMPARE(one.at(0, 0).value("misses"), 80.0); // 2 % of 4,000 blocks
    QCOMPARE(one.at(1, 0).value("misses"), 80.0);
    // Runs of 8 misses: adaptive reads each run in one I/O (the first in two, while its distance
    // grows), pg18 at distance 1-2 in pairs.
    QCOMPARE(one.at(1, 1).value("ios"), 11.0);
    QCOMPARE(one.at(1, 0).value("ios"), 40.0);
    QCOMPARE(one.baselines[0], std::string("fixed:94"));
    if (!test::kChildCanStartThreads)
        QSKIP("TSan cannot run the binary's own threads in a child it forks");
    const Result a = run({QStringLiteral("sweep"), QString::fromStdString(spec), QStringLiteral("--out"),
                          dir.filePath(QStringLiteral("j1")), QStringLiteral("--jobs"), QStringLiteral("1"),
                          QStringLiteral("--formats"), QStringLiteral("none")});
    const Result b = run({QStringLiteral("sweep"), QString::fromStdString(spec), QStringLiteral("--out"),
                          dir.filePath(QStringLiteral("j2")), QStringLiteral("--jobs"), QStringLiteral("2"),
                          QStringLiteral("--formats"), QStringLiteral("none")});
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(b.exitCode, 0);
    QCOMPARE(readFile(dir.filePath(QStringLiteral("j1/sweep.csv"))), QByteArray::fromStdString(csv));
    QCOMPARE(readFile(dir.filePath(QStringLiteral("j2/sweep.csv"))), QByteArray::fromStdString(csv));
}

void TestSweep::commandsThroughXargsMergeToTheSameCsv() {
    if (!test::kChildCanStartThreads)
        QSKIP("TSan cannot run the binary's own threads in a child it forks");
    QTemporaryDir dir;
    const QString spec = writeFile(dir, QStringLiteral("s.json"), kSmallSpec);
    const QString direct = dir.filePath(QStringLiteral("direct"));
    const QString spread = dir.filePath(QStringLiteral("spread"));
    QCOMPARE(run({QStringLiteral("sweep"), spec, QStringLiteral("--out"), direct, QStringLiteral("--formats"),
                  QStringLiteral("none")})
                 .exitCode,
             0);
    // One line per run: each a shell command of its own, run two at a time.
    const Result emitted = run(
        {QStringLiteral("sweep"), spec, QStringLiteral("--emit-commands"), QStringLiteral("--out"), spread});
    QCOMPARE(emitted.exitCode, 0);
    QCOMPARE(emitted.out.count(QLatin1Char('\n')), 18); // 6 cells x (2 policies + baseline)
    QProcess xargs;
    xargs.start(QStringLiteral("sh"),
                {QStringLiteral("-c"), QStringLiteral("tr '\\n' '\\0' | xargs -0 -P2 -n1 sh -c")});
    xargs.write(emitted.out.toUtf8());
    xargs.closeWriteChannel();
    QVERIFY(xargs.waitForFinished(300'000));
    QCOMPARE(xargs.exitCode(), 0);
    QCOMPARE(QDir(spread + QStringLiteral("/cells")).entryList({QStringLiteral("*.json")}).size(), 18);
    const Result merged = run({QStringLiteral("sweep"), spec, QStringLiteral("--merge"), spread});
    QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
    QCOMPARE(readFile(spread + QStringLiteral("/sweep.csv")),
             readFile(direct + QStringLiteral("/sweep.csv")));
    QVERIFY(QFile::exists(spread + QStringLiteral("/slowdown-pg18.png")));
    QVERIFY(QFile::exists(spread + QStringLiteral("/slowdown-adaptive_pg18.svg")));
}

void TestSweep::collapseMapCellsShowTheTrap() {
    SweepResults results;
    results.spec = loadSweepSpec("collapse-map", false);
    const SweepSpec& spec = results.spec;
    QCOMPARE(spec.cells(), std::uint64_t(300)); // 60 miss fractions x 5 spacings
    QCOMPARE(spec.policies.size(), std::size_t(4));
    prepareResults(results);
    // The cells at 6 % misses: evenly spread, then in runs of 16; and 45 % in runs of 16.
    const auto cellOf = [&](const std::string& fraction, const std::string& spacing) {
        for (std::uint64_t cell = 0; cell < spec.cells(); ++cell) {
            const auto at = spec.coordinates(cell);
            if (spec.axes[0].values[at[0]] == fraction && spec.axes[1].values[at[1]] == spacing)
                return cell;
        }
        qFatal("no cell %s %s", fraction.c_str(), spacing.c_str());
    };
    const auto runOf = [&](std::uint64_t cell, const std::string& policy) {
        RunConfig config = spec.cellConfig(cell);
        config.policy = policy;
        return figuresOf(runScan(config, policy, {}));
    };
    for (const std::string spacing : {"even", "runs:2", "runs:4", "runs:8", "runs:16"}) {
        const std::uint64_t cell = cellOf("6", spacing);
        const SweepFigures adaptive = runOf(cell, "adaptive");
        QCOMPARE(adaptive.value("blocks"), 100'000.0);
        QCOMPARE(adaptive.value("misses"), 6'000.0);
        QVERIFY2(adaptive.value("collapse_intervals") == 0, spacing.c_str());
        QVERIFY2(adaptive.value("frac_distance_le2") < 0.05, spacing.c_str());
    }
    const SweepFigures pg18even = runOf(cellOf("6", "even"), "pg18");
    QVERIFY(pg18even.value("collapse_intervals") >= 1);
    QVERIFY(pg18even.value("frac_distance_le2") > 0.99);
    QCOMPARE(pg18even.value("waits"),
             pg18even.value("misses")); // every miss waited for: nothing was read ahead
    const SweepFigures pg18long = runOf(cellOf("45", "runs:16"), "pg18");
    QCOMPARE(pg18long.value("collapse_intervals"), 0.0);
    QVERIFY(pg18long.value("frac_distance_le2") < 0.1);
}

void TestSweep::mapsAreDrawnPerMetricAndPolicy() {
    QTemporaryDir dir;
    const SweepResults results =
        runSweep(loadSweepSpec(writeFile(dir, QStringLiteral("s.json"), kSmallSpec).toStdString(), false), 2,
                 nullptr, {});
    QStringList written;
    QCOMPARE(writeSweepMaps(results, dir.path(), {PlotFormat::Png, PlotFormat::Svg}, &written), QString());
    // 7 metrics x (2 policies + both side by side) x 2 formats.
    QCOMPARE(written.size(), int(sweepMetrics().size()) * 3 * 2);
    const QImage pg18(dir.filePath(QStringLiteral("frac_distance_le2-pg18.png")));
    QCOMPARE(pg18.size(), QSize(640, 420));
    QVERIFY(pg18.text(QStringLiteral("Description")).contains(QStringLiteral("lookahead sweep small")));
    // pg18 at 2 % even misses sits at distance <= 2 throughout (the scale's top, red), adaptive at
    // the same cell almost never (its bottom, blue): compare the two maps' bottom-left cells.
    const QImage adaptive(dir.filePath(QStringLiteral("frac_distance_le2-adaptive_pg18.png")));
    const auto redness = [](const QImage& image) {
        long red = 0, blue = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                red += c.red() > 200 && c.green() < 60 && c.blue() < 60;
                blue += c.blue() > 150 && c.red() < 80;
            }
        return std::pair{red, blue};
    };
    const auto [pg18Red, pg18Blue] = redness(pg18);
    const auto [adaptiveRed, adaptiveBlue] = redness(adaptive);
    QVERIFY2(pg18Red > 5000, qPrintable(QString::number(pg18Red)));
    QVERIFY2(adaptiveBlue > pg18Blue, qPrintable(QStringLiteral("%1 %2").arg(adaptiveBlue).arg(pg18Blue)));
    QVERIFY(adaptiveRed < pg18Red);
    QSvgRenderer svg(dir.filePath(QStringLiteral("slowdown.svg")));
    QVERIFY(svg.isValid());
    QVERIFY(readFile(dir.filePath(QStringLiteral("slowdown.svg"))).contains("adaptive@pg18"));
}

void TestSweep::hoverAndClickFindTheCell() {
    // Built whole: assigning short literals trips GCC 12's -Wrestrict at -O3 (GCC bug 105329).
    const SweepGrid grid{"t",
                         "x",
                         "y",
                         {"1", "2", "3", "4"},
                         {"a", "b"},
                         {"p", "q"},
                         {{0, 1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}},
                         {}};
    SweepMapView view;
    view.resize(900, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setGrid(grid);
    for (const SweepCell want : {SweepCell{0, 0, 0}, SweepCell{0, 3, 1}, SweepCell{1, 2, 0}}) {
        const std::optional<SweepCell> got = view.cellAt(view.cellCentre(want));
        QVERIFY(got);
        QCOMPARE(got->policy, want.policy);
        QCOMPARE(got->x, want.x);
        QCOMPARE(got->y, want.y);
    }
    std::optional<SweepCell> clicked;
    connect(&view, &SweepMapView::cellClicked, this, [&](SweepCell cell) { clicked = cell; });
    QTest::mouseClick(view.plotWidget(), Qt::LeftButton, {},
                      view.plotWidget()->mapFrom(&view, view.cellCentre({1, 3, 1})));
    QVERIFY(clicked);
    QCOMPARE(clicked->policy, std::size_t(1));
    QCOMPARE(clicked->x, std::size_t(3));
    QCOMPARE(clicked->y, std::size_t(1));
    QVERIFY(!view.cellAt(QPoint(2, 2)));
}

void TestSweep::badSpecsAreRefusedByName() {
    QTemporaryDir dir;
    const auto expect = [&](const QByteArray& text, const QString& part) {
        const QString error = specError(dir, text);
        QVERIFY2(error.contains(part), qPrintable(error + QStringLiteral(" lacks ") + part));
        QVERIFY2(error.contains(QStringLiteral("bad.json")), qPrintable(error));
    };
    const QByteArray axes = R"("policies": ["pg18"], "axes": [)";
    expect("{" + axes + R"({"option": "eicc", "values": [1]}]})",
           QStringLiteral("axis 1: unknown option 'eicc'"));
    expect(R"({"base": {"datasett": "seq"}, )" + axes + R"({"option": "eic", "values": [1]}]})",
           QStringLiteral("base: unknown option 'datasett'"));
    expect("{" + axes + R"({"option": "eic", "from": 8, "to": 2, "step": 1}]})",
           QStringLiteral("axis 1 (eic): an empty range"));
    expect("{" + axes + R"({"option": "eic", "values": []}]})", QStringLiteral("axis 1 (eic): no values"));
    expect("{" + axes + R"({"option": "eic", "values": [4]}, {"option": "jitter", "values": ["lots"]}]})",
           QStringLiteral("axis 2 (jitter): --jitter 'lots'"));
    expect("{" + axes + R"({"option": "eic", "values": [5000]}]})",
           QStringLiteral("axis 1 (eic): --eic '5000'"));
    expect(R"({"policies": ["pg99"], "axes": [{"option": "eic", "values": [1]}]})",
           QStringLiteral("policy 'pg99'"));
    expect(R"({"axes": [{"option": "eic", "values": [1]}]})", QStringLiteral("\"policies\""));
    expect(R"({"policies": ["pg18"], "axes": [{"option": "eic", "values": [1]})",
           QStringLiteral("not valid JSON"));
    expect(R"({"policies": ["pg18"], "axes": [], "colour": 1})", QStringLiteral("unknown key \"colour\""));
    // 400 x 300 = 120,000 cells: refused without --force, accepted with it.
    const QByteArray big = "{" + axes +
                           R"({"option": "consumer-ns", "from": 1, "to": 400, "step": 1},
                               {"option": "latency-us", "from": 1, "to": 300, "step": 1}]})";
    expect(big, QStringLiteral("120000 cells is more than 100,000; give --force"));
    QCOMPARE(specError(dir, big, true), QString());
    const QString missing = dir.filePath(QStringLiteral("none.json"));
    try {
        loadSweepSpec(missing.toStdString(), false);
        QFAIL("a missing spec loaded");
    } catch (const InputError& error) {
        QVERIFY(QString::fromUtf8(error.what())
                    .contains(QStringLiteral("none.json': cannot open it (No such file")));
    }
    if (!test::kChildCanStartThreads)
        QSKIP("TSan cannot run the binary's own threads in a child it forks");
    const Result cli = run({QStringLiteral("sweep"), dir.filePath(QStringLiteral("bad.json")),
                            QStringLiteral("--out"), dir.filePath(QStringLiteral("o"))});
    QCOMPARE(cli.exitCode, 2);
    QCOMPARE(cli.err.count(QStringLiteral("lookahead: ")), 1);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("o/sweep.csv"))));
    QCOMPARE(run({QStringLiteral("sweep"), QStringLiteral("collapse-map")}).exitCode, 2);
    QCOMPARE(run({QStringLiteral("sweep"), QStringLiteral("collapse-map"), QStringLiteral("--out"),
                  dir.path(), QStringLiteral("--jobs"), QStringLiteral("zero")})
                 .exitCode,
             2);
}

void TestSweep::badMergeDirectoriesAreRefused() {
    QTemporaryDir dir;
    const std::string specPath = writeFile(dir, QStringLiteral("s.json"), kSmallSpec).toStdString();
    const SweepSpec spec = loadSweepSpec(specPath, false);
    const SweepResults results = runSweep(spec, 2, nullptr, {});
    // The files the commands would write, from the same runs.
    const QString out = dir.filePath(QStringLiteral("m"));
    QVERIFY(QDir().mkpath(out + QStringLiteral("/cells")));
    for (std::uint64_t cell = 0; cell < spec.cells(); ++cell)
        for (std::size_t p = 0; p < results.runsPerCell(); ++p) {
            const RunConfig config = sweepRunConfig(results, cell, p);
            const QJsonObject document{
                {QStringLiteral("schema"), QStringLiteral("lookahead.summary/1")},
                {QStringLiteral("config"), configObject(config)},
                {QStringLiteral("runs"), QJsonArray{runSummaryObject(runScan(config, config.policy, {}))}}};
            QFile file(out + QLatin1Char('/') + QString::fromStdString(sweepCellFile(results.spec, cell, p)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QJsonDocument(document).toJson());
        }
    QCOMPARE(sweepCsv(mergeSweep(spec, out.toStdString(), nullptr)), sweepCsv(results));
    const auto mergeError = [&] {
        try {
            mergeSweep(spec, out.toStdString(), nullptr);
        } catch (const InputError& error) {
            return QString::fromUtf8(error.what());
        }
        return QString();
    };
    // A stray file, then a cell's file from another configuration, then a missing one.
    const QString stray = out + QStringLiteral("/cells/other.json");
    QVERIFY(QFile::copy(out + QStringLiteral("/cells/c000000-pg18.json"), stray));
    QVERIFY2(mergeError().contains(QStringLiteral("other.json is not a run of this sweep")),
             qPrintable(mergeError()));
    QVERIFY(QFile::remove(stray));
    const QString second = out + QStringLiteral("/cells/c000002-pg18.json");
    const QByteArray original = readFile(second);
    QVERIFY(QFile::remove(second));
    QVERIFY(QFile::copy(out + QStringLiteral("/cells/c000004-pg18.json"), second));
    QVERIFY2(
        mergeError().contains(QStringLiteral("c000002-pg18.json: not this sweep's cell 2 (miss_fraction is "
                                             "[20], the cell's [6])")),
        qPrintable(mergeError()));
    QVERIFY(QFile::remove(second));
    QVERIFY2(mergeError().contains(QStringLiteral("c000002-pg18.json is missing (1 of 18 runs")),
             qPrintable(mergeError()));
    writeFile(dir, QStringLiteral("m/cells/c000002-pg18.json"), "{\"schema\": 1");
    QVERIFY2(mergeError().contains(QStringLiteral("not the summary JSON of one run")),
             qPrintable(mergeError()));
    if (!test::kChildCanStartThreads)
        QSKIP("TSan cannot run the binary's own threads in a child it forks");
    // A failed merge leaves an earlier sweep.csv as it was.
    writeFile(dir, QStringLiteral("m/sweep.csv"), "earlier\n");
    const Result cli =
        run({QStringLiteral("sweep"), QString::fromStdString(specPath), QStringLiteral("--merge"), out});
    QCOMPARE(cli.exitCode, 2);
    QVERIFY(cli.err.contains(QStringLiteral("c000002-pg18.json")));
    QCOMPARE(readFile(out + QStringLiteral("/sweep.csv")), QByteArray("earlier\n"));
    QFile::remove(out + QStringLiteral("/cells/c000002-pg18.json"));
    QVERIFY(QFile::copy(out + QStringLiteral("/cells/c000000-pg18.json"), second));
    Q_UNUSED(original);
}

void TestSweep::cancelledSweepWritesNothing() {
    QTemporaryDir dir;
    const SweepSpec spec = loadSweepSpec("collapse-map", false);
    std::atomic<bool> cancel{false};
    std::uint64_t seen = 0;
    const SweepResults results = runSweep(spec, 2, &cancel, [&](const SweepProgress& progress) {
        seen = progress.done;
        if (progress.done > 0)
            cancel = true;
        QVERIFY(progress.total == 1500);
    });
    QVERIFY(results.cancelled);
    QVERIFY(!results.complete());
    QVERIFY(seen < 1500);
    if (!test::kChildCanStartThreads)
        QSKIP("TSan cannot run the binary's own threads in a child it forks");
    QProcess process;
    const QString out = dir.filePath(QStringLiteral("c"));
    process.start(QStringLiteral(LOOKAHEAD_BINARY),
                  {QStringLiteral("sweep"), QStringLiteral("collapse-map"), QStringLiteral("--out"), out});
    QVERIFY(process.waitForStarted());
    // Once runs go (their first progress line), not before: the cancel must stop runs.
    QByteArray err;
    QVERIFY(test::waitForStderr(process, " runs (", err, 60'000));
    process.terminate(); // SIGTERM, as a Ctrl+C or a job scheduler's stop would
    QVERIFY(process.waitForFinished(60'000));
    QCOMPARE(process.exitCode(), 143);
    err += process.readAllStandardError();
    QVERIFY(QString::fromUtf8(err).contains(QStringLiteral("nothing was written")));
    QVERIFY(!QFile::exists(out + QStringLiteral("/sweep.csv")));
}

void TestSweep::sweepViewRunsAndOpensACell() {
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("LookaheadTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_sweep"));
    QSettings().clear(); // the window starts from its defaults, not from an earlier run's settings
    QTemporaryDir dir;
    const QString spec = writeFile(dir, QStringLiteral("s.json"), kSmallSpec);
    MainWindow window;
    window.controller().setKeepEvents(false);
    window.show();
    SweepWindow* sweep = window.sweepWindow();
    sweep->show();
    QVERIFY(QTest::qWaitForWindowExposed(sweep));
    QVERIFY(sweep->loadSpec(spec));
    // Accepts the message box loadSpec() shows, as soon as it is up (its exec() runs the event loop).
    QTimer closer;
    closer.callOnTimeout([] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
            box->accept();
    });
    closer.start(10);
    QVERIFY(!sweep->loadSpec(dir.filePath(QStringLiteral("missing.json")))); // a dialog, nothing loaded
    closer.stop();
    QSignalSpy finished(sweep, &SweepWindow::sweepFinished);
    sweep->startSweep();
    QVERIFY(sweep->running());
    QVERIFY(finished.wait(120'000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(sweep->results() && sweep->results()->complete());
    // The same figures as a sweep run without the window.
    const SweepResults direct = runSweep(loadSweepSpec(spec.toStdString(), false), 1, nullptr, {});
    QCOMPARE(sweepCsv(*sweep->results()), sweepCsv(direct));
    const SweepGrid& grid = sweep->mapView()->grid();
    QCOMPARE(grid.policies.size(), std::size_t(2));
    QCOMPARE(grid.columns(), std::size_t(3));
    QCOMPARE(grid.rows(), std::size_t(2));
    QCOMPARE(grid.at(0, 0, 0), direct.at(0, 0).value("frac_distance_le2")); // pg18, 2 % even
    const QString tip = sweep->cellText({0, 0, 0});
    QVERIFY2(tip.contains(QStringLiteral("pg18")) && tip.contains(QStringLiteral("miss-fraction = 2")) &&
                 tip.contains(QStringLiteral("vs fixed:94")) && tip.contains(QStringLiteral("Collapses 1")),
             qPrintable(tip));
    // Exports: the maps as PNG and SVG, the CSV as the direct sweep's.
    QCOMPARE(sweep->exportMaps(dir.filePath(QStringLiteral("map.png"))), QString());
    QCOMPARE(sweep->exportMaps(dir.filePath(QStringLiteral("map.svg"))), QString());
    QVERIFY(!QImage(dir.filePath(QStringLiteral("map.png"))).isNull());
    QVERIFY(QSvgRenderer(dir.filePath(QStringLiteral("map.svg"))).isValid());
    QCOMPARE(sweep->exportCsv(dir.filePath(QStringLiteral("out.csv"))), QString());
    QCOMPARE(readFile(dir.filePath(QStringLiteral("out.csv"))), QByteArray::fromStdString(sweepCsv(direct)));
    // A click on adaptive's cell at 20 % in runs of 8 runs it in the main window against its baseline.
    QSignalSpy started(&window.controller(), &RunController::started);
    const SweepCell cell{1, 2, 1};
    QTest::mouseClick(
        sweep->mapView()->plotWidget(), Qt::LeftButton, {},
        sweep->mapView()->plotWidget()->mapFrom(sweep->mapView(), sweep->mapView()->cellCentre(cell)));
    QVERIFY(started.count() == 1 || started.wait(5000));
    const RunConfig& shown = window.controller().runningExperiment().runs.front().config;
    QCOMPARE(QString::fromStdString(window.controller().runningExperiment().runs.front().policy),
             QStringLiteral("adaptive"));
    QCOMPARE(QString::fromStdString(shown.mechanics), QStringLiteral("pg18"));
    QCOMPARE(QString::fromStdString(shown.prewarm), QStringLiteral("misses:20:runs:8"));
    QCOMPARE(window.controller().runningExperiment().runs.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(window.controller().runningExperiment().runs.back().policy),
             QStringLiteral("fixed:94"));
    QSignalSpy done(&window.controller(), &RunController::finished);
    QVERIFY(done.wait(60'000));
    const std::vector<RunSummary> summaries = window.controller().summaries();
    QCOMPARE(summaries.size(), std::size_t(2));
    QCOMPARE(double(summaries.front().waits), direct.at(sweepCellAt(direct.spec, 0, 2, 1), 1).value("waits"));
}

void TestSweep::sweepViewCancelsItsSetUp() {
    QTemporaryDir dir;
    // 100,000 cells: their set-up (every cell configured) outlasts the click on Cancel.
    const QString spec = writeFile(dir, QStringLiteral("big.json"), R"({"base": {"dataset": "seq"},
 "axes": [{"option": "consumer-ns", "from": 1, "to": 400}, {"option": "latency-us", "from": 1, "to": 250}],
 "policies": ["pg18"]})");
    SweepWindow sweep;
    QVERIFY(sweep.loadSpec(spec));
    QSignalSpy finished(&sweep, &SweepWindow::sweepFinished);
    sweep.startSweep();
    sweep.cancelSweep();
    QVERIFY(finished.wait(60'000));
    QCOMPARE(finished.first().first().toBool(), true);
    QVERIFY(!sweep.results()); // nothing ran, nothing to draw
}

QTEST_MAIN(TestSweep)
// Repeated cells (docs/repeats.md): a policy whose repeats' run times mingle with the baseline's is
// marked on its map, one clearly apart is not, and nothing is marked where nothing was repeated.
// Run -> Sweep this run: the run as set up (here a nested loop's inner visits with a reset per outer
// row, its cache state, the distance restored after each reset) swept over eic and io_combine_limit
// for four policies; the cell of the run's own settings has the run's own figures.
void TestSweep::sweepThisRunKeepsItsVisits() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("LookaheadTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_sweep"));
    QSettings().clear();
    QTemporaryDir dir;
    const QByteArray visits = test::rescannedVisits(100, 8, 2000), cached = test::blockLines(0, 2000, 4);
    RunConfig config = defaultRunConfig();
    config.blockList = writeFile(dir, QStringLiteral("inner.txt"), visits).toStdString();
    config.relationBlocks = 2000;
    config.prewarm = "list:" + writeFile(dir, QStringLiteral("cached.txt"), cached).toStdString();
    config.stream.restoreAfterReset = true;
    config.policy = "pg19";
    MainWindow window;
    window.controller().setKeepEvents(false);
    QCOMPARE(window.setupPanel()->setConfig(config), QString());
    QSignalSpy ran(&window.controller(), &RunController::finished);
    window.startRun();
    QVERIFY(ran.wait(60'000));
    const RunSummary own = window.controller().summaries().front();
    QCOMPARE(own.resets, std::uint64_t(99));

    SweepWindow* sweep = window.sweepWindow();
    QVERIFY(sweep->sweepRun(window.setupPanel()->config(), window.sweptRunTitle()));
    const SweepSpec& spec = *sweep->spec();
    QCOMPARE(QString::fromStdString(spec.name), QStringLiteral("this run: inner.txt"));
    const auto base = [&](const char* option) {
        for (const OptionValue& value : spec.base)
            if (value.first == option)
                return QString::fromStdString(value.second);
        return QString();
    };
    QCOMPARE(base("blocks"), QString::fromStdString(config.blockList));
    QCOMPARE(base("prewarm"), QString::fromStdString(config.prewarm));
    QCOMPARE(base("relation-blocks"), QStringLiteral("2000"));
    QCOMPARE(base("restore-after-reset"), QStringLiteral("true"));
    QVERIFY(base("policy").isEmpty() && base("eic").isEmpty());
    QCOMPARE(spec.axes.size(), std::size_t(2));
    QCOMPARE(spec.axes[0].values, (std::vector<std::string>{"1", "2", "4", "8", "16", "32", "64", "128"}));
    QCOMPARE(spec.axes[1].values, (std::vector<std::string>{"1", "2", "4", "8", "16", "32"}));
    QCOMPARE(spec.policies.size(), std::size_t(4));

    QSignalSpy finished(sweep, &SweepWindow::sweepFinished);
    sweep->startSweep();
    QVERIFY(finished.wait(300'000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(sweep->results() && sweep->results()->complete());
    // eic 16 (the 5th value) across, io_combine_limit 16 (the 5th) up, pg19 the third policy.
    const SweepFigures& cell = sweep->results()->at(sweepCellAt(spec, 0, 4, 4), 2);
    QCOMPARE(cell.value("misses"), double(own.misses));
    QCOMPARE(cell.value("blocks"), double(own.blocks));
    QCOMPARE(cell.value("waits"), double(own.waits));

    // A model of an imported trace that takes its cache state from the trace (which blocks another
    // backend evicted during the scan, too) is refused rather than swept on the dataset the panel
    // still shows: no option names that state.
    const HeldDirectory lists = HeldDirectory::makePrivate("tst-sweep-");
    RunConfig traced = config;
    traced.tracedReads =
        std::make_shared<const std::vector<std::uint32_t>>(std::vector<std::uint32_t>{1, 2, 3});
    try {
        sweepSpecOfRun(traced, "traced", lists);
        QFAIL("a model of an imported trace's cache state was swept");
    } catch (const InputError& error) {
        QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("from the imported trace")),
                 error.what());
    }
    QVERIFY(lists.empty());

    // A model on the trace's reads (held in memory, as an import makes it) is swept on them, written
    // as a block list of the window's own: its own cell has the model's own figures.
    RunConfig reads = defaultRunConfig();
    std::vector<std::uint32_t> sequence;
    for (std::uint32_t block = 0; block < 3000; ++block)
        sequence.push_back(block % 7 == 3 ? 2999 - block : block); // runs broken by jumps back
    reads.blockSequence = std::make_shared<const std::vector<std::uint32_t>>(sequence);
    reads.relationBlocks = 3000;
    reads.policy = "pg18";
    const RunSummary model = runScan(reads, reads.policy, {});
    QVERIFY(sweep->sweepRun(reads, QStringLiteral("trace.strace")));
    const SweepSpec& readsSpec = *sweep->spec();
    QString listPath;
    for (const OptionValue& value : readsSpec.base)
        if (value.first == "blocks")
            listPath = QString::fromStdString(value.second);
    QVERIFY2(listPath.endsWith(QLatin1String("/visits.txt")) && !listPath.startsWith(dir.path()),
             qPrintable(listPath));
    QFile list(listPath);
    QVERIFY(list.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = list.readAll().split('\n');
    QCOMPARE(lines.size(), qsizetype(sequence.size() + 1)); // each block, then the last newline
    QCOMPARE(lines[3].toUInt(), sequence[3]);
    QCOMPARE(lines.back(), QByteArray());
    QSignalSpy readsFinished(sweep, &SweepWindow::sweepFinished);
    sweep->startSweep();
    QVERIFY(readsFinished.wait(300'000));
    QVERIFY(sweep->results() && sweep->results()->complete());
    // eic 16 and io_combine_limit 16 (each the 5th value), pg18 the second policy.
    const SweepFigures& readsCell = sweep->results()->at(sweepCellAt(readsSpec, 0, 4, 4), 1);
    QCOMPARE(readsCell.value("misses"), double(model.misses));
    QCOMPARE(readsCell.value("ios"), double(model.ios));
    QCOMPARE(readsCell.value("waits"), double(model.waits));
}

void TestSweep::cellsWithinNoiseAreMarked() {
    QTemporaryDir dir;
    SweepResults results =
        runSweep(loadSweepSpec(writeFile(dir, QStringLiteral("s.json"), kSmallSpec).toStdString(), false), 1,
                 nullptr, {});
    const SweepMetric& metric = *findSweepMetric("runtime_ms");
    QVERIFY(sweepGrid(results, metric, 0).withinNoise.empty());
    QVERIFY(!results.withinNoise(0, 0));
    results.at(0, 2).repeatRuntimesNs = {100, 103, 98, 101, 99}; // the baseline
    results.at(0, 0).repeatRuntimesNs = {101, 99, 102, 100, 98};
    results.at(0, 1).repeatRuntimesNs = {150, 152, 149, 155, 151};
    QVERIFY(results.withinNoise(0, 0));
    QVERIFY(!results.withinNoise(0, 1));
    // The CSV says the same: within, beyond, and nothing where a run went once.
    const QStringList rows = QString::fromStdString(sweepCsv(results)).split(QLatin1Char('\n'));
    const qsizetype column = rows[0].split(QLatin1Char(',')).indexOf(QStringLiteral("vs_baseline"));
    QVERIFY(column > 0);
    QCOMPARE(rows[1].split(QLatin1Char(','))[column], QStringLiteral("within noise"));
    QCOMPARE(rows[2].split(QLatin1Char(','))[column], QStringLiteral("beyond noise"));
    QCOMPARE(rows[3].split(QLatin1Char(','))[column], QString());
    const SweepGrid grid = sweepGrid(results, metric, 0);
    QCOMPARE(grid.withinNoise.size(), std::size_t(2));
    QCOMPARE(std::count(grid.withinNoise[0].begin(), grid.withinNoise[0].end(), 1), 1);
    QCOMPARE(std::count(grid.withinNoise[1].begin(), grid.withinNoise[1].end(), 1), 0);
    SweepMapView view;
    view.setGrid(grid, -1);
    QCOMPARE(qobject_cast<QCustomPlot*>(view.plotWidget())->itemCount(), 1);
}

#include "tst_sweep.moc"

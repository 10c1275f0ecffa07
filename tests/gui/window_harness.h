// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the window tests share: the small A/B run they start, the command line parsed as the app
// parses it, running a window until it has drawn everything, and opening a PostgreSQL index scan or a trace.

#include "cli/cli_options.h"
#include "dashboard.h"
#include "gui/jobs/run_controller.h"
#include "gui/window/input_openers.h"
#include "gui/window/main_window.h"
#include "gui/window/run_setup_panel.h"
#include "gui/window/session_files.h"
#include "signal_waits.h"

#include "export_parsers.h"
#include "gui/dialogs/export_dialog.h"
#include "gui/window/screen_exports.h"
#include "plot_view.h"
#include "qcp.h"
#include "summary_panel.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStringList>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTableWidget>
#include <QTest>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

// TSan aborts a process that forks once threads exist (die_after_fork): a check that starts the binary, a
// tracer or a server with QProcess is skipped under it, saying what it forks.
#if defined(__SANITIZE_THREAD__)
#define LA_SKIP_FORK_UNDER_TSAN(what)                                                                        \
    QSKIP("TSan aborts a fork() after threads exist (die_after_fork): " what)
#else
#define LA_SKIP_FORK_UNDER_TSAN(why)
#endif

namespace la::test {

// A window test's settings: in a test location (QStandardPaths' test mode), none left from an earlier
// run, so the window starts from its defaults as at a first launch.
inline void useCleanTestSettings() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("LookaheadTest"));
    QSettings().clear();
}

// `alternating` of `blocks` blocks, pg18 as A against pg19 as B: well under a second.
inline QStringList smallRun(int blocks = 8192) {
    return {QStringLiteral("--dataset"),        QStringLiteral("alternating"),
            QStringLiteral("--pattern-blocks"), QString::number(blocks),
            QStringLiteral("--policy"),         QStringLiteral("pg18"),
            QStringLiteral("--compare-policy"), QStringLiteral("pg19")};
}

inline CliOptions cliOptions(const QStringList& args) {
    std::vector<std::string> list;
    for (const QString& arg : args)
        list.push_back(arg.toStdString());
    return parseCommandLine(list);
}

// Shows the window (or a view of its own) at width × height: whether it was exposed.
inline bool shownAt(QWidget& window, int width, int height) {
    window.resize(width, height);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

// How long a window test waits for a run or a view: a hang guard only, the runs take under a second.
inline constexpr int kWindowTimeoutMs = 60'000;

// The run is over and every view has drawn what it got.
inline bool waitIdle(MainWindow& window, int timeoutMs = kWindowTimeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    QSignalSpy finished(&window.controller(), &RunController::finished);
    if (!until(
            finished, [&] { return !window.controller().running(); }, timeoutMs))
        return false;
    QSignalSpy settled(window.dashboard(), &Dashboard::settled);
    return until(
        settled, [&] { return window.dashboard()->idle(); }, static_cast<int>(deadline.remainingTime()));
}

// Starts the window as `lookahead ARGS` would, runs, and waits until the run is over and drawn.
inline void runToEnd(MainWindow& window, const QStringList& args) {
    QSignalSpy finished(&window.controller(), &RunController::finished);
    window.applyStartup(cliOptions(args));
    window.startRun();
    QCOMPARE(test::caught(finished, 1, kWindowTimeoutMs), 1);
    QVERIFY(waitIdle(window));
}

// `config` with the scan of a PostgreSQL index: `index` over `heap` (paths under `dataDir`, as
// pg_relation_filepath gives them) for the keys in `keyRange`.
inline RunConfig withPgIndexScan(RunConfig config, const QString& dataDir, const QString& index,
                                 const QString& heap, const std::string& keyRange) {
    config.pg.dataDir = dataDir.toStdString();
    config.pg.index = index.toStdString();
    config.pg.heap = heap.toStdString();
    config.pg.keyRange = keyRange;
    return config;
}

// Calls `start` and waits for the opener's answer `signal`: what it said (empty when the input was
// taken), or nothing if it never answered.
template <typename Signal, typename Start>
std::optional<QString> answerOf(MainWindow& window, Signal signal, Start start) {
    QSignalSpy answered(window.inputs(), signal);
    start();
    if (answered.isEmpty() && !answered.wait(kWindowTimeoutMs))
        return std::nullopt;
    return answered.first().first().toString();
}

// File → Open PostgreSQL index as its dialog does it, waiting for the check that follows.
inline std::optional<QString> openPgScanAndWait(MainWindow& window, const RunConfig& config) {
    return answerOf(window, &InputOpeners::pgScanChecked, [&] { window.inputs()->openPgScan(config); });
}

// File → Import trace, waiting for the import on its worker.
inline std::optional<QString> importTraceAndWait(MainWindow& window, const QString& trace) {
    return answerOf(window, &InputOpeners::traceImported, [&] { window.inputs()->importTraceFile(trace); });
}

// File → Open session, waiting until its runs are drawn: what went wrong, empty when the window opened
// it without a word.
inline QString openSessionAndWait(MainWindow& window, const QString& path) {
    QSignalSpy opened(window.sessions(), &SessionFiles::opened);
    window.sessions()->open(path);
    if (test::caught(opened, 1, kWindowTimeoutMs) != 1)
        return QStringLiteral("no answer to opening ") + path;
    if (const QString error = opened.first().at(1).toString(); !error.isEmpty())
        return error;
    return waitIdle(window) ? QString() : QStringLiteral("its runs were not drawn");
}

// Saves the window's runs to `path` and waits for the save to end: empty on success, else why not.
inline QString saveSessionAndWait(MainWindow& window, const QString& path) {
    QSignalSpy saved(window.sessions(), &SessionFiles::saved);
    if (const QString refused = window.sessions()->save(path); !refused.isEmpty())
        return refused;
    if (test::caught(saved, 1, kWindowTimeoutMs) != 1)
        return QStringLiteral("no answer to saving ") + path;
    return saved.first().at(1).toString();
}

// After the window refused a session: its error dialog names `named`, and the window holds no runs and
// can still start one. Ends the calling test's checks on the first that fails.
inline void checkSessionRefused(MainWindow& window, const QString& named) {
    QVERIFY(window.errorDialog());
    QVERIFY(window.errorDialog()->text().contains(named) ||
            window.errorDialog()->informativeText().contains(named));
    QVERIFY(window.controller().traces().empty());
    QVERIFY(window.setupPanel()->runButton()->isEnabled());
}

// Text without its spaces: a line break of the label may have replaced any of them.
inline QString withoutSpaces(QString text) {
    return text.remove(QLatin1Char(' ')).remove(QLatin1Char('\n'));
}

// A text shown in place of `whole`: the same, or a start of it ending in "…" (with `whole` at hand).
inline bool wholeOrElided(const QString& shown, const QString& whole) {
    if (withoutSpaces(shown) == withoutSpaces(whole))
        return true;
    return shown.endsWith(QStringLiteral("…")) &&
           withoutSpaces(whole).startsWith(withoutSpaces(shown.chopped(1)));
}

// Where a text item across a plot is drawn: its text's size placed at its anchor as its alignment asks.
inline QRectF itemTextBox(const QCPItemText& text) {
    const QPointF anchor = text.position->pixelPosition();
    const QSizeF size = QFontMetricsF(text.font()).size(0, text.text());
    QRectF box(anchor, size);
    if (text.positionAlignment() & Qt::AlignRight)
        box.moveRight(anchor.x());
    if (text.positionAlignment() & Qt::AlignHCenter)
        box.moveLeft(anchor.x() - size.width() / 2);
    if (text.positionAlignment() & Qt::AlignBottom)
        box.moveBottom(anchor.y());
    if (text.positionAlignment() & Qt::AlignVCenter)
        box.moveTop(anchor.y() - size.height() / 2);
    return box;
}

// Every text of the verdict banner and the summary table of `dashboard` as laid out now: whole, or
// ending in "…" with the whole text as its tooltip, and inside its box. What is not, a line each.
inline QStringList unfitTexts(const Dashboard& dashboard) {
    QStringList problems;
    const QLabel* banner = dashboard.verdictLabel();
    const QFontMetrics metrics(banner->font());
    const QStringList lines = banner->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() * metrics.lineSpacing() > banner->contentsRect().height())
        problems << QStringLiteral("the verdict's %1 lines in %2 px").arg(lines.size()).arg(banner->height());
    for (const QString& line : lines)
        if (metrics.horizontalAdvance(line) > banner->contentsRect().width())
            problems << QStringLiteral("a verdict line wider than %1 px: %2")
                            .arg(banner->contentsRect().width())
                            .arg(line);
    if (!wholeOrElided(lines.join(QLatin1Char(' ')), dashboard.verdict()) ||
        banner->toolTip() != dashboard.verdict())
        problems << QStringLiteral("the verdict shown is not the verdict: ") + banner->text();

    // Texts across the panes (a note why a pane is empty, a line's label, a collapse's): inside the pane;
    // a note whole or cut with "…", all of it where a hover over the pane shows it.
    for (const PlotView* view : dashboard.views()) {
        if (view->isHidden()) // the streams' view, of runs of one stream: nothing on screen to fit
            continue;
        QCustomPlot* plot = view->findChild<QCustomPlot*>();
        plot->replot();
        for (int i = 0; i < plot->itemCount(); ++i) {
            const auto* text = qobject_cast<QCPItemText*>(plot->item(i));
            if (!text || !text->visible() || !text->clipToAxisRect() || text->text().isEmpty())
                continue;
            const QRectF area = text->clipAxisRect()->rect();
            if (!area.adjusted(-1, -1, 1, 1).contains(itemTextBox(*text)))
                problems << QStringLiteral("%1: '%2' out of its pane").arg(view->title(), text->text());
        }
        for (std::size_t run = 0; run < view->paneCount() && run < dashboard.runs().size(); ++run)
            if (const QString note = view->paneNote(run); !note.isEmpty()) {
                const QRect pane = view->paneArea(run);
                const QString shown = view->tooltipAt(pane.center());
                if (shown.isEmpty())
                    problems << QStringLiteral("%1: no tooltip over the note '%2'").arg(view->title(), note);
            }
    }

    const SummaryPanel* panel = dashboard.summaryPanel();
    const QTableWidget* table = panel->table();
    const QHeaderView* header = table->horizontalHeader();
    const QStringList headers = panel->headers();
    const int margin = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    for (int c = 0; c < table->columnCount(); ++c) {
        const QTableWidgetItem* item = table->horizontalHeaderItem(c);
        const QString whole = headers.value(c % static_cast<int>(headers.size()));
        if (!item)
            continue;
        // A label may wrap onto lines of its own; each must fit, and together they are the label or
        // its start cut with "…", the whole label then in the tooltip.
        const QStringList lines = item->text().split(QLatin1Char('\n'));
        for (const QString& line : lines)
            if (header->fontMetrics().horizontalAdvance(line) > header->sectionSize(c) - margin)
                problems << QStringLiteral("header %1 wider than its column: %2").arg(c).arg(line);
        const QString shown = lines.join(QLatin1Char(' '));
        if (!wholeOrElided(shown, whole) || (shown != whole && item->toolTip() != whole))
            problems << QStringLiteral("header %1 shows '%2' for '%3'").arg(c).arg(shown, whole);
    }
    for (int r = 0; r < table->rowCount(); ++r) {
        // The height the cells' wrapped text needs at the columns' widths, as the view asks its delegate.
        int needed = 0;
        for (int c = 0; c < table->columnCount(); ++c) {
            QStyleOptionViewItem option;
            option.initFrom(table);
            option.features |= QStyleOptionViewItem::WrapText;
            option.textElideMode = table->textElideMode();
            option.rect = QRect(0, 0, table->columnWidth(c), 0);
            needed = std::max(needed,
                              table->itemDelegate()->sizeHint(option, table->model()->index(r, c)).height());
        }
        if (table->rowHeight(r) < needed)
            problems << QStringLiteral("row %1 is %2 px, its text needs %3")
                            .arg(r)
                            .arg(table->rowHeight(r))
                            .arg(needed);
        for (int c = 0; c < table->columnCount(); ++c)
            if (const QTableWidgetItem* item = table->item(r, c);
                item && c % headers.size() != 0 && item->toolTip().isEmpty())
                problems << QStringLiteral("cell %1,%2 has no tooltip").arg(r).arg(c);
    }
    return problems;
}

// The same for an export `width` pixels wide of `dashboard` with `caption`: each line of its caption
// (the verdict among them) and each cell of its table drawn inside its box, whole or ending in "…",
// and every text whole in `metadata` (the export's description). What is not, a line each.
inline QStringList unfitExportTexts(const Dashboard& dashboard, const QString& caption, double width,
                                    const QString& metadata) {
    QStringList problems;
    QMap<QString, QStringList> parts;
    for (const Dashboard::CaptionLine& line : dashboard.captionLines(width, caption)) {
        if (QFontMetricsF(line.font).horizontalAdvance(line.text) > width - 16.0)
            problems << QStringLiteral("a caption line wider than the image: ") + line.text;
        parts[line.whole] << line.text;
    }
    if (!dashboard.verdict().isEmpty() && !parts.contains(dashboard.verdict()))
        problems << QStringLiteral("the verdict is not in the caption");
    for (auto it = parts.begin(); it != parts.end(); ++it) {
        if (!wholeOrElided(it.value().join(QLatin1Char(' ')), it.key()))
            problems << QStringLiteral("the caption shows '%1' for '%2'")
                            .arg(it.value().join(QLatin1Char('|')), it.key());
        if (!metadata.contains(it.key()))
            problems << QStringLiteral("not whole in the metadata: ") + it.key();
    }
    const SummaryPanel& panel = *dashboard.summaryPanel();
    for (const TableCell& cell :
         layoutSummaryTable(QRectF(0.0, 0.0, width, 1000.0), panel.headers(), panel.rows())) {
        const QString whole = QString(cell.whole).replace(QLatin1Char('\n'), QStringLiteral("; "));
        if (QFontMetricsF(cell.font).horizontalAdvance(cell.shown) > cell.rect.width() + 0.5)
            problems << QStringLiteral("a table cell wider than its column: ") + cell.shown;
        if (!wholeOrElided(cell.shown, whole))
            problems << QStringLiteral("a table cell shows '%1' for '%2'").arg(cell.shown, whole);
        if (!metadata.contains(whole))
            problems << QStringLiteral("a table text not whole in the metadata: ") + whole;
    }
    return problems;
}

// At 1280×720 and 1600×1000, the window and a PNG and an SVG export of that size: every text of the
// verdict banner, the summary table and the export's caption and table whole or ending in "…" with the
// whole in its tooltip or the export's metadata, and the SVG read back by xmllint and rsvg-convert.
// The files go to `dir`; with LOOKAHEAD_SCREENSHOTS=DIR the window and the PNG are saved there too, as
// `name`-WxH.png and `name`-export-WxH.png.
inline void checkNothingClipped(MainWindow& window, const QString& dir, const QString& name) {
    for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
        const QString at = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        window.resize(size);
        QTRY_COMPARE_WITH_TIMEOUT(window.size(), size, kWindowTimeoutMs);
        QTRY_VERIFY2_WITH_TIMEOUT(
            unfitTexts(*window.dashboard()).isEmpty() && window.dashboard()->idle(),
            qPrintable(at + QStringLiteral(": ") + unfitTexts(*window.dashboard()).join(QLatin1Char('\n'))),
            kWindowTimeoutMs);
        // The status bar's message too: whole, or ending in "…" (the verdict is above in full).
        const QStatusBar* status = window.statusBar();
        QTRY_VERIFY2_WITH_TIMEOUT(
            status->fontMetrics().horizontalAdvance(status->currentMessage()) <= status->width() - 12 ||
                status->currentMessage().endsWith(QStringLiteral("…")),
            qPrintable(at + QStringLiteral(": the status bar: ") + status->currentMessage()),
            kWindowTimeoutMs);
        PlotExportRequest request;
        request.size = size;
        request.path = dir + QStringLiteral("/%1-export-%2.png").arg(name, at);
        QCOMPARE(window.exports()->exportPlots(request), QString());
        const QString description = pngText(request.path, QStringLiteral("Description"));
        const QStringList unfit =
            unfitExportTexts(*window.dashboard(), window.caption(), size.width(), description);
        QVERIFY2(unfit.isEmpty(), qPrintable(at + QStringLiteral(": ") + unfit.join(QLatin1Char('\n'))));
        request.format = PlotFormat::Svg;
        request.path = dir + QStringLiteral("/%1-export-%2.svg").arg(name, at);
        QCOMPARE(window.exports()->exportPlots(request), QString());
#if !defined(__SANITIZE_THREAD__)
        // Not under TSan, which kills a process that forks (xmllint, rsvg-convert) once threads
        // exist (die_after_fork); the other builds read the SVG back.
        const QString svgError = svgReadBack(request.path);
        QVERIFY2(svgError.isEmpty(), qPrintable(svgError));
#endif
        if (const QString shots = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !shots.isEmpty()) {
            for (QCustomPlot* plot : window.findChildren<QCustomPlot*>())
                plot->replot();
            window.grab().save(shots + QStringLiteral("/%1-%2.png").arg(name, at));
            QFile::copy(dir + QStringLiteral("/%1-export-%2.png").arg(name, at),
                        shots + QStringLiteral("/%1-export-%2.png").arg(name, at));
        }
    }
}

} // namespace la::test

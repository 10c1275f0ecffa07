// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the window tests share: the small A/B run they start, the command line parsed as the app
// parses it, running a window until it has drawn everything, and opening a PostgreSQL index scan or a trace.

#include "cli/cli_options.h"
#include "dashboard.h"
#include "gui/input_openers.h"
#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "signal_waits.h"

#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>

#include <optional>
#include <string>
#include <vector>

namespace la::test {

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

// File → Open PostgreSQL index as its dialog does it, waiting for the check that follows: what the
// check said (empty when the scan was taken), or nothing if it never answered.
inline std::optional<QString> openPgScanAndWait(MainWindow& window, const RunConfig& config) {
    QSignalSpy checked(window.inputs(), &InputOpeners::pgScanChecked);
    window.inputs()->openPgScan(config);
    if (checked.isEmpty() && !checked.wait(kWindowTimeoutMs))
        return std::nullopt;
    return checked.first().first().toString();
}

// File → Import trace, waiting for the import on its worker: what it said (empty when the trace was
// taken), or nothing if it never answered.
inline std::optional<QString> importTraceAndWait(MainWindow& window, const QString& trace) {
    QSignalSpy imported(window.inputs(), &InputOpeners::traceImported);
    window.inputs()->importTraceFile(trace);
    if (imported.isEmpty() && !imported.wait(kWindowTimeoutMs))
        return std::nullopt;
    return imported.first().first().toString();
}

} // namespace la::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/run_command.h"
#include "experiment/verdict.h"

#include "cli/summary_text.h"
#include "experiment/command_outputs.h"
#include "experiment/runner.h"
#include "experiment/session_io.h"
#include "experiment/signal_cancel.h"
#include "experiment/summary_json.h"
#include "figure_text.h"
#include "input_error.h"
#include "message_text.h"
#include "pg/pg_source.h"
#include "run_inputs.h"

#include <QLocale>
#include <QString>

#include <cstdio>
#include <memory>

namespace la {

namespace {

QString count(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

// Reports work before a run (writing a dataset file) on stderr, every 10%.
class PreparingPrinter {
public:
    void operator()(const std::string& stage, std::uint64_t done, std::uint64_t total) {
        const int tenths = total > 0 ? static_cast<int>(done * 10 / total) : 10;
        if (stage == m_stage && tenths == m_tenths)
            return;
        m_stage = stage;
        m_tenths = tenths;
        std::fprintf(stderr, "lookahead: %s: %d%%\n", stage.c_str(), tenths * 10);
    }

private:
    std::string m_stage;
    int m_tenths = -1;
};

// The first line of a run: what it scans (and, for an index scan, what the index held).
void printDataset(const RunConfig& config, const BlockSource& source, const pg::IndexFacts& facts) {
    const std::string name = config.pg.active()
                                 ? std::string("index ").append(pg::resolvePath(config.pg, config.pg.index))
                             : config.blockList.empty() ? config.dataset.name
                                                        : config.blockList;
    std::printf("dataset %s: %s blocks in a %s-block relation, %s%s%s\n", printable(name).c_str(),
                qPrintable(count(source.length())), qPrintable(count(source.relationBlocks())),
                config.dataset.direction == Direction::Forward ? "forward" : "backward",
                config.file.empty() ? "" : ", file ", printable(config.file).c_str());
    if (!config.pg.active())
        return;
    std::printf("  index: %s leaf pages, %s TIDs, %s posting lists, %s dead items skipped; %s visits to %s "
                "distinct heap blocks (steps +1 %s, -1 %s, other %s)%s\n",
                qPrintable(count(facts.leafPages)), qPrintable(count(facts.tids)),
                qPrintable(count(facts.postingLists)), qPrintable(count(facts.deadItems)),
                qPrintable(count(facts.visits)), qPrintable(count(facts.distinctBlocks)),
                qPrintable(count(facts.ascendingSteps)), qPrintable(count(facts.descendingSteps)),
                qPrintable(count(facts.randomSteps)), facts.checksums ? ", checksums verified" : "");
}

} // namespace

int runHeadless(const CliOptions& options) {
    const RunConfig& config = options.run;
    Experiment experiment = makeExperiment(config, options.comparison);
    experiment.recorded = options.recorded;
    ExperimentCallbacks callbacks;
    // Every input is checked, and every output opened, before anything runs or is written.
    callbacks.ready = [&] {
        pg::IndexFacts facts;
        const auto source = openSource(config, &facts);
        printDataset(config, *source, facts);
    };
    callbacks.notice = [](int, const std::string& message) {
        std::fprintf(stderr, "lookahead: note: %s\n", message.c_str());
    };
    callbacks.preparing = PreparingPrinter();
    callbacks.cancel = &SignalCancel::requested();
    callbacks.runFinished = [&](int run, const RunSummary& summary, std::shared_ptr<EventSpool>) {
        std::fputs(describeRun(experiment.runs[static_cast<std::size_t>(run)].label, summary).c_str(),
                   stdout);
    };
    callbacks.repeatFinished = [&](int run, int repeat, const RunSummary& summary) {
        std::printf("%c (%s), repeat %d: run time %s s, waits %s\n", run == 0 ? 'A' : 'B',
                    printable(experiment.runs[static_cast<std::size_t>(run)].label).c_str(), repeat + 1,
                    qPrintable(figureText(summary, "runtime_ns", FigureText::Printable)),
                    qPrintable(figureText(summary, "waits", FigureText::Printable)));
    };
    ExperimentResult result;
    try {
        checkOutputs(runInputs(config), options.outputs);
        result = runExperiment(experiment, options.outputs.experiment(options.commandLine), callbacks);
    } catch (const InputError& error) {
        return reportBadInput(error);
    }
    int exitCode = 0;
    for (const RunSummary& summary : result.summaries)
        if (!summary.error.empty())
            exitCode = 1;
    std::fputs(describeBesideServer(experiment, result.summaries).c_str(), stdout);
    std::fputs(verdictLines(runsVerdict(experiment, result.summaries)).c_str(), stdout);
    // A cancelled run's partial results are written too, whole and marked "cancelled".
    if (reportWriteErrors(result.writeErrors) != 0 ||
        writeJson(options.outputs.summaryJson, summaryJson(experiment, result.summaries)) != 0)
        exitCode = 1;
    if (result.sessionWritten)
        std::printf("wrote %s (session)\n", printable(options.outputs.save).c_str());
    return SignalCancel::exitCodeOr(exitCode);
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/open_command.h"
#include "experiment/verdict.h"

#include "cli/command_outputs.h"
#include "cli/summary_text.h"

#include "experiment/explain_output.h"
#include "experiment/session_io.h"
#include "experiment/summary_json.h"
#include "input_error.h"
#include "message_text.h"

#include <QJsonDocument>

#include <cstdio>

namespace la {

void checkOpenOutputs(const CliOptions& options) {
    checkOutputsApart({{"--open", options.open}}, outputsOf(options));
    if (!options.save.empty() || !options.traceCsv.empty())
        throw InputError("--open reads a saved session; --save and --trace-csv write a new run's "
                         "(run without --open)");
}

int runOpenHeadless(const CliOptions& options) {
    std::optional<OutputFile> json;
    OpenedSession session;
    try {
        checkOpenOutputs(options);
        session = openSession(options.open);
        if (!options.summaryJson.empty())
            json.emplace(options.summaryJson, "summary JSON");
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    const Experiment& experiment = session.experiment;
    std::printf("session %s: %zu run(s), saved by Lookahead %s\n", printable(options.open).c_str(),
                experiment.runs.size(), printable(session.reader->meta("lookahead_version")).c_str());
    for (std::size_t i = 0; i < experiment.runs.size(); ++i) {
        const RunSummary& summary = session.summaries[i];
        std::fputs(describeRun(experiment.runs[i].label, summary).c_str(), stdout);
        // PostgreSQL's own EXPLAIN of an imported trace's scan, as the import printed it.
        if (!summary.serverExplain.empty())
            std::fputs(
                qPrintable(describeServerExplain(
                    QJsonDocument::fromJson(QByteArray::fromStdString(summary.serverExplain)).object())),
                stdout);
    }
    std::fputs(describeBesideServer(experiment, session.summaries).c_str(), stdout);
    std::fputs(verdictLines(experiment, session.summaries).c_str(), stdout);
    return writeJson(json, summaryJson(experiment, session.summaries));
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/open_command.h"
#include "experiment/verdict.h"

#include "cli/summary_text.h"
#include "experiment/command_outputs.h"

#include "experiment/explain_output.h"
#include "experiment/session_io.h"
#include "experiment/summary_json.h"
#include "input_error.h"
#include "message_text.h"

#include <QJsonDocument>

#include <cstdio>

namespace la {

int runOpenHeadless(const CliOptions& options) {
    OpenedSession session;
    try {
        session = openSessionForCommand(options.open, options.outputs, options.node);
    } catch (const InputError& error) {
        return reportBadInput(error);
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
    std::fputs(verdictLines(runsVerdict(experiment, session.summaries)).c_str(), stdout);
    return writeJson(options.outputs.summaryJson, summaryJson(experiment, session.summaries));
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/command_experiment.h"

#include "experiment/explain_output.h"
#include "experiment/import_summary.h"
#include "experiment/signal_cancel.h"
#include "run_inputs.h"

#include <unistd.h>

#include <cstdio>
#include <memory>

namespace la {

namespace {

void note(const std::string& message) {
    std::fprintf(stderr, "lookahead: note: %s\n", message.c_str());
}

// Reports the import's progress on stderr, every 10%.
class ProgressPrinter {
public:
    void operator()(std::uint64_t done, std::uint64_t total) {
        const int tenths = total > 0 ? static_cast<int>(done * 10 / total) : 10;
        if (tenths == m_tenths)
            return;
        m_tenths = tenths;
        std::fprintf(stderr, "lookahead: importing trace: %d%%\n", tenths * 10);
    }

private:
    int m_tenths = -1;
};

} // namespace

std::optional<ObservedTrace> importRequestedTrace(const ExperimentRequest& request,
                                                  const CommandOutputs& outputs) {
    std::vector<NamedPath> inputs = runInputs(request.run);
    inputs.push_back({"--import-trace", request.trace.path});
    if (!request.explain.empty())
        inputs.push_back({"--explain", request.explain});
    checkOutputs(inputs, outputs);
    TraceImportCallbacks callbacks;
    if (::isatty(STDERR_FILENO)) // scripts get errors alone on stderr
        callbacks.progress = ProgressPrinter();
    callbacks.cancel = &SignalCancel::requested();
    return importTrace(request.trace, callbacks);
}

std::optional<Experiment> requestedExperiment(const ExperimentRequest& request,
                                              const CommandOutputs& outputs) {
    if (request.trace.path.empty()) {
        checkOutputs(runInputs(request.run), outputs);
        Experiment experiment = makeExperiment(request.run, request.comparison);
        experiment.recorded = request.recorded;
        return experiment;
    }
    std::optional<ObservedTrace> trace = importRequestedTrace(request, outputs);
    if (!trace)
        return std::nullopt;
    std::vector<std::string> notes = importNotes(*trace, !request.trace.relation.empty());
    for (const std::string& line : notes)
        note(line);
    Experiment experiment = makeImportExperiment(
        std::make_shared<const ObservedTrace>(std::move(*trace)), request.trace.path, request.run,
        request.visitsGiven ? ModelVisits::FromConfig : ModelVisits::TraceReads);
    experiment.runs[0].explainPath = request.explain;
    experiment.recorded = request.recorded;
    // The model may read the traced relation's own files: no output may land on them either.
    checkOutputsApart(runInputs(experiment.runs[1].config), outputs.named());
    for (std::string& line : importModelNotes(experiment)) {
        note(line);
        notes.push_back(std::move(line));
    }
    experiment.notes = std::move(notes);
    // PostgreSQL's own figures for the scan, read before anything runs so that a bad file stops the
    // command; the observed run takes them as it runs (runner.cpp).
    if (!request.explain.empty()) {
        const QString explain = QString::fromStdString(request.explain);
        observedScanOf(readExplainOutput(explain), explain);
    }
    return experiment;
}

} // namespace la

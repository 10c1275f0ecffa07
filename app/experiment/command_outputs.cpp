// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/command_outputs.h"
#include "experiment/plan_nodes.h"

#include "files/output_file.h"
#include "input_error.h"

#include <cstdio>
#include <utility>

namespace la {

namespace {

// Each output: its option, what messages call it, and whether it is written only after the runs.
struct OutputEntry {
    const char* flag;
    const char* what;
    std::string CommandOutputs::*path;
    bool afterRuns;
};

constexpr OutputEntry kOutputs[] = {
    {"--trace-csv", "trace CSV", &CommandOutputs::traceCsv, false},
    {"--summary-json", "summary JSON", &CommandOutputs::summaryJson, true},
    {"--export-png", "PNG", &CommandOutputs::exportPng, true},
    {"--export-svg", "SVG", &CommandOutputs::exportSvg, true},
    {"--export-pdf", "PDF", &CommandOutputs::exportPdf, true},
    {"--save", "session", &CommandOutputs::save, false},
    {"--cache-after", "cache after the run", &CommandOutputs::cacheAfter, false},
};

} // namespace

std::vector<NamedPath> CommandOutputs::named() const {
    std::vector<NamedPath> outputs;
    for (const OutputEntry& entry : kOutputs)
        if (!(this->*entry.path).empty())
            outputs.push_back({entry.flag, this->*entry.path});
    return outputs;
}

ExperimentOutputs CommandOutputs::experiment(const std::string& commandLine) const {
    ExperimentOutputs outputs;
    outputs.eventCsv = traceCsv;
    outputs.session = save;
    outputs.cacheAfter = cacheAfter;
    outputs.commandLine = commandLine;
    return outputs;
}

namespace {

// Opens each output `probe` names and lets it go unwritten: throws InputError for one that cannot be.
void probeOutputs(const CommandOutputs& outputs, OutputProbe probe) {
    for (const OutputEntry& entry : kOutputs)
        if (!(outputs.*entry.path).empty() && (probe == OutputProbe::All || entry.afterRuns))
            OutputFile(outputs.*entry.path, entry.what);
}

} // namespace

void checkOutputs(const std::vector<NamedPath>& inputs, const CommandOutputs& outputs, OutputProbe probe) {
    checkOutputsApart(inputs, outputs.named());
    probeOutputs(outputs, probe);
}

void checkOpenOutputs(const std::string& session, const CommandOutputs& outputs) {
    if (!outputs.save.empty() || !outputs.traceCsv.empty())
        throw InputError("--open reads a saved session; --save and --trace-csv write a new run's "
                         "(run without --open)");
    checkOutputs({{"--open", session}}, outputs);
}

int reportBadInput(const std::exception& error) {
    std::fprintf(stderr, "lookahead: %s\n", error.what());
    return 2;
}

int reportWriteErrors(const std::vector<std::string>& errors) {
    for (const std::string& error : errors)
        std::fprintf(stderr, "lookahead: %s\n", error.c_str());
    return errors.empty() ? 0 : 1;
}

OpenedSession openSessionForCommand(const std::string& path, const CommandOutputs& outputs,
                                    std::optional<int> node) {
    checkOpenOutputs(path, outputs);
    OpenedSession session = openSession(path);
    if (node)
        std::printf("the runs are of %s\n",
                    requireModelledNode(session.experiment.recorded, *node, path).c_str());
    return session;
}

int writeJson(const std::string& path, const QByteArray& document) {
    if (path.empty())
        return 0;
    const std::string error =
        writeOutputFile(path, "summary JSON",
                        std::string_view(document.constData(), static_cast<std::size_t>(document.size())));
    if (error.empty())
        return 0;
    std::fprintf(stderr, "lookahead: %s\n", error.c_str());
    return 1;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/import_command.h"

#include "cli/run_command.h"
#include "cli/signal_cancel.h"
#include "cli/summary_text.h"
#include "event_csv.h"
#include "experiment/import_summary.h"
#include "input_error.h"
#include "io/output_file.h"
#include "io/output_guard.h"
#include "message_text.h"
#include "observed/observed_events.h"
#include "observed/trace_importer.h"

#include <QJsonDocument>

#include <unistd.h>

#include <cstdio>
#include <memory>

namespace la {

namespace {

void note(const std::string& message) {
    std::fprintf(stderr, "lookahead: note: %s\n", message.c_str());
}

// What the user should know about the import: which file was chosen, and what the trace lacks.
void reportImport(const CliOptions& options, const ObservedTrace& trace) {
    std::string others;
    for (std::size_t i = 1; i < trace.files.size() && i < 4; ++i)
        others += (others.empty() ? "" : ", ") + excerpt(trace.files[i].name) + " (" +
                  std::to_string(trace.files[i].reads) + " reads)";
    note("relation " + excerpt(trace.relation) + ": " + std::to_string(trace.reads.size()) + " reads" +
         (options.traceRelation.empty()
              ? ", the most read of " + std::to_string(trace.files.size() + trace.otherFiles) + " file(s)" +
                    (others.empty() ? "" : "; others: " + others) + "; choose with --trace-relation"
              : ""));
    if (trace.processes.size() > 1)
        note("merged the reads of " + std::to_string(trace.processes.size()) +
             " processes (I/O workers or parallel workers)");
    if (!trace.hasTimes)
        note("the trace has no timestamps (strace -ttt): reads are placed 1 µs apart in trace order");
    else if (!trace.hasDurations)
        note("the trace has no durations (strace -T): every read is drawn as instantaneous");
    if (trace.failedReads > 0)
        note(std::to_string(trace.failedReads) + " read(s) of the relation failed and are left out");
    if (trace.unalignedReads > 0)
        note(std::to_string(trace.unalignedReads) +
             " read(s) are not whole 8 kB blocks (rounded out to blocks)");
    if (trace.unmatchedResumes > 0)
        note(std::to_string(trace.unmatchedResumes) +
             " read(s) began before the trace did (a resumed call without its start) and are left out");
    if (trace.uringEnters > 0)
        note("the trace also shows " + std::to_string(trace.uringEnters) +
             " io_uring_enter calls, whose reads a syscall trace cannot see");
    for (const std::string& text : trace.notes)
        note(text);
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

std::optional<ObservedTrace> importTraceFor(const CliOptions& options) {
    std::vector<NamedPath> inputs = runInputs(options.run);
    inputs.push_back({"--import-trace", options.importTrace});
    checkOutputsApart(inputs, outputsOf(options));
    TraceImportCallbacks callbacks;
    if (::isatty(STDERR_FILENO)) // scripts get errors alone on stderr
        callbacks.progress = ProgressPrinter();
    callbacks.cancel = &SignalCancel::requested();
    std::optional<ObservedTrace> trace = importTrace(
        {options.importTrace, traceFormatNamed(options.traceFormat), options.traceRelation}, callbacks);
    if (trace)
        reportImport(options, *trace);
    return trace;
}

int runImportHeadless(const CliOptions& options) {
    ObservedModel model{options.run.comparePolicy.empty() ? options.run.policy : options.run.comparePolicy,
                        options.run, std::nullopt};
    model.config.comparePolicy.clear();
    std::unique_ptr<EventCsvWriter> csv;
    std::optional<OutputFile> json;
    std::optional<ObservedTrace> trace;
    try {
        trace = importTraceFor(options);
        if (!trace)
            return SignalCancel::exitCode();
        model.config.blockSequence =
            std::make_shared<const std::vector<std::uint32_t>>(trace->impliedBlocks());
        if (!options.traceCsv.empty())
            csv = std::make_unique<EventCsvWriter>(options.traceCsv, "observed");
        if (!options.summaryJson.empty())
            json.emplace(options.summaryJson, "summary JSON");
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    const ObservedSummary observed = summarizeObserved(*trace);
    std::fputs(describeObserved(observed).c_str(), stdout);

    int exitCode = 0;
    try {
        if (csv) {
            EventSink* sinks[] = {csv.get()};
            emitObservedEvents(*trace, sinks);
            csv->setRunLabel(model.policy);
        }
        RunCallbacks callbacks;
        callbacks.notice = note;
        callbacks.cancel = &SignalCancel::requested();
        if (csv)
            callbacks.sinks.push_back(csv.get());
        model.summary = runScan(model.config, model.policy, callbacks);
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    } catch (const IoError& error) { // the trace CSV could not be written
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 1;
    }
    std::fputs(describeRun(model.policy + " model", *model.summary).c_str(), stdout);
    if (!model.summary->error.empty())
        exitCode = 1;
    std::printf("%s\n", qPrintable(observedVerdict(observed, *model.summary)));
    // Built only when asked for: it lists every process, which a trace may have by the million.
    const QByteArray summary =
        json ? QJsonDocument(importSummaryDocument(options.importTrace, observed, model)).toJson()
             : QByteArray();
    const int written = writeOutputs(csv, json, summary);
    if (SignalCancel::exitCode() != 0)
        return SignalCancel::exitCode();
    return exitCode != 0 ? exitCode : written;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "observed_summary.h"

#include "block_size.h"
#include "checked_math.h"
#include "observed_events.h"
#include "read_sources.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace la {

namespace {

// EXPLAIN IO's I/O counters as a trace gives them: each read with its size and the reads in flight
// once it started (from the durations). The stream's pins and its waits are not in a syscall trace.
class ObservedExplainIo final : public EventSink {
public:
    explicit ObservedExplainIo(ExplainIo& io) : m_io(io) {
        m_io.prefetchKnown = false;
        m_io.waitsKnown = false;
    }
    void onEvents(std::span<const Event> batch) override {
        for (const Event& event : batch)
            if (event.kind == EventKind::ReadStarted)
                m_io.countIo(event.nblocks, event.in_flight);
    }

private:
    ExplainIo& m_io;
};

} // namespace

RunSummary summarizeObservedRun(const ObservedTrace& trace) {
    RunSummary run;
    SummaryBuilder builder;
    ObservedExplainIo explainIo(run.explainIo);
    EventSink* sinks[] = {&builder, &explainIo};
    emitObservedEvents(trace, sinks);
    builder.finish(run);

    run.policy = "observed";
    run.waitsUnknown = !trace.waitsKnown();
    run.waitsScope = trace.waitsScope();
    run.ioMethodUsed = traceFormatName(trace.format);
    for (const ObservedRead& read : trace.reads)
        run.blocks += read.nblocks;
    for (const ObservedDeviceRead& read : trace.deviceReads)
        run.deviceReadAheadReads += read.readAhead ? 1 : 0;
    if (trace.sourcesExact) {
        // A kernel capture saw, for each call, whether the device worked for it.
        run.pageCacheKnown = true;
        run.pageCacheReads = static_cast<std::uint64_t>(
            std::count_if(trace.reads.begin(), trace.reads.end(),
                          [](const ObservedRead& read) { return read.source == ReadSource::PageCache; }));
        run.deviceReads = run.ios - run.pageCacheReads;
        run.pageCacheBasis = kKernelCaptureSourceBasis;
    } else {
        // Without durations the reads stay counted as the device's, but the summary says it is not known.
        const ReadSources sources = classifyReadSources(trace.reads, trace.hasDurations);
        run.deviceReads = sources.known() ? sources.deviceReads : run.ios;
        run.pageCacheKnown = sources.known();
        run.pageCacheReads = sources.pageCacheReads;
        if (sources.split())
            run.pageCacheThresholdNs = static_cast<double>(sources.thresholdNs);
        run.pageCacheBasis = sources.basisText();
    }
    run.bytesRead = run.blocks * kBlockSize;
    return run;
}

ObservedSummary observedSummaryOf(const ObservedTrace& trace, RunSummary run) {
    ObservedSummary s;
    s.run = std::move(run);
    std::vector<std::uint64_t> perProcess(trace.processes.size());
    for (const ObservedRead& read : trace.reads) {
        if (!checkedAdd(s.deviceTimeNs, read.durationNs, s.deviceTimeNs)) // saturates, never wraps
            s.deviceTimeNs = std::numeric_limits<std::int64_t>::max();
        ++perProcess[read.process];
    }
    s.source = traceFormatName(trace.format);
    s.relation = trace.relation;
    if (s.run.runtimeNs > 0)
        s.megabytesPerSecond =
            static_cast<double>(s.run.bytesRead) * 1e3 / static_cast<double>(s.run.runtimeNs);
    if (s.run.ios > 0)
        s.meanReadBlocks = static_cast<double>(s.run.blocks) / static_cast<double>(s.run.ios);
    s.combinable = combinableDescendingRuns(trace.reads);
    for (std::size_t i = 0; i < trace.processes.size(); ++i)
        s.readsByProcess.emplace_back(trace.processes[i], perProcess[i]);
    return s;
}

ObservedSummary summarizeObserved(const ObservedTrace& trace) {
    return observedSummaryOf(trace, summarizeObservedRun(trace));
}

} // namespace la

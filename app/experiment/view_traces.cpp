// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/view_traces.h"

#include "experiment/run_storage.h"

#include <algorithm>
#include <iterator>

namespace la {

// Appends the events the views read (isViewedEvent) of each batch to one trace.
class ViewTraces::Sink final : public EventSink {
public:
    explicit Sink(RunTrace& trace) : m_trace(trace) {}
    void onEvents(std::span<const Event> batch) override {
        keepViewed(batch, m_viewed);
        m_trace.append(m_viewed);
    }

private:
    RunTrace& m_trace;
    std::vector<Event> m_viewed; // reused: batches arrive many times a second
};

ViewTraces::ViewTraces(const Experiment& experiment) {
    for (const RunVariant& run : experiment.runs)
        m_traces.push_back(viewTraceFor(run));
}

ViewTraces::~ViewTraces() = default;

void ViewTraces::follow(ExperimentCallbacks& callbacks, std::function<void(const std::string&)> problem) {
    callbacks.runStarted = [this](int run, std::vector<EventSink*>& sinks) {
        m_sinks.push_back(std::make_unique<Sink>(*m_traces[static_cast<std::size_t>(run)]));
        sinks.push_back(m_sinks.back().get());
    };
    callbacks.runFinished = [this, problem](int run, const RunSummary& summary, std::shared_ptr<EventSpool>) {
        RunTrace& trace = *m_traces[static_cast<std::size_t>(run)];
        trace.setSummary(summary);
        // Nothing is lost (the columns stayed in memory), but the memory is no longer bounded.
        if (const std::string what = trace.storageProblem(); !what.empty() && problem)
            problem(trace.label() + ": " + what);
    };
}

std::vector<const RunTrace*> ViewTraces::traces() const {
    std::vector<const RunTrace*> traces;
    for (const auto& trace : m_traces)
        traces.push_back(trace.get());
    return traces;
}

} // namespace la

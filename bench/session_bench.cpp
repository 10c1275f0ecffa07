// SPDX-License-Identifier: GPL-3.0-or-later
// Session save and open speed on a real A/B run (docs/session-format.md): runs pg18 against pg19 on
// the simulated device over N blocks (default 10 M), keeps the viewed events, then times saving them
// as a session (events/s), opening it and rebuilding the views' traces, and drawing the dashboard.
//
//   lookahead-session-bench [BLOCKS] [FILE]     (FILE default /tmp/lookahead-session-bench.lookahead)
#include "dashboard.h"
#include "experiment/experiment.h"
#include "experiment/runner.h"
#include "experiment/session_io.h"
#include "experiment/session_traces.h"
#include "experiment/verdict.h"
#include "run.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

class Keep final : public la::EventSink {
public:
    void onEvents(std::span<const la::Event> batch) override {
        for (const la::Event& e : batch)
            if (la::isViewedEvent(e.kind))
                events.push_back(e);
    }
    std::vector<la::Event> events;
};

double secondsOf(const QElapsedTimer& clock) {
    return static_cast<double>(clock.nsecsElapsed()) / 1e9;
}

std::uint64_t keptEvents(const std::vector<Keep>& kept) {
    std::uint64_t events = 0;
    for (const Keep& k : kept)
        events += k.events.size();
    return events;
}

// Runs the experiment, keeping each run's viewed events; returns the runs' summaries.
std::vector<la::RunSummary> runKeeping(la::Experiment& experiment, std::vector<Keep>& kept,
                                       unsigned long long blocks) {
    QElapsedTimer clock;
    clock.start();
    la::ExperimentCallbacks callbacks;
    callbacks.runStarted = [&kept](int run, std::vector<la::EventSink*>& sinks) {
        sinks.push_back(&kept[static_cast<std::size_t>(run)]);
    };
    la::ExperimentOutputs outputs;
    outputs.commandLine = "lookahead-session-bench";
    std::vector<la::RunSummary> summaries = la::runExperiment(experiment, outputs, callbacks).summaries;
    const std::uint64_t rows = keptEvents(kept);
    std::printf("runs: %llu blocks A/B, %llu viewed events, %.2f s\n", blocks,
                static_cast<unsigned long long>(rows), static_cast<double>(clock.elapsed()) / 1000.0);
    return summaries;
}

// Saves the kept events as a session, as the window saves a run's.
void save(const std::string& file, const la::Experiment& experiment, const std::vector<Keep>& kept,
          const std::vector<la::RunSummary>& summaries) {
    QElapsedTimer clock;
    clock.start();
    {
        la::SessionWriter writer(file);
        for (std::size_t i = 0; i < experiment.runs.size(); ++i) {
            writer.beginRun(la::sessionRunOf(experiment.runs[i]));
            writer.onEvents(kept[i].events);
            la::endSessionRun(writer, summaries[i]);
        }
        la::finishSession(writer, experiment);
    }
    const double saveSeconds = secondsOf(clock);
    const std::uint64_t rows = keptEvents(kept);
    struct stat st {};
    ::stat(file.c_str(), &st);
    std::printf("save: %llu events in %.3f s = %.1f M events/s; file %s, %.1f MiB (%.1f bytes/event)\n",
                static_cast<unsigned long long>(rows), saveSeconds,
                static_cast<double>(rows) / saveSeconds / 1e6, file.c_str(),
                static_cast<double>(st.st_size) / 1048576.0,
                static_cast<double>(st.st_size) / static_cast<double>(rows));
}

// Draws the session's dashboard as the window would show it; false if nothing was drawn.
bool draw(const la::OpenedSession& session, const std::vector<std::unique_ptr<la::RunTrace>>& traces,
          double openSeconds) {
    QElapsedTimer clock;
    clock.start();
    la::Dashboard dashboard;
    std::vector<const la::RunTrace*> shown;
    for (const auto& trace : traces)
        shown.push_back(trace.get());
    dashboard.setRuns(shown);
    dashboard.setVerdict(la::variantVerdict(session.experiment, session.summaries));
    dashboard.setLive(false);
    dashboard.summariesChanged();
    const QImage image = dashboard.renderImage(QSize(1600, 1000), 1.0, QString());
    const double drawSeconds = secondsOf(clock);
    std::printf("draw: dashboard 1600x1000 in %.3f s; open and draw %.3f s\n", drawSeconds,
                openSeconds + drawSeconds);
    return !image.isNull();
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const unsigned long long blocks = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000ULL;
    const std::string file = argc > 2 ? argv[2] : "/tmp/lookahead-session-bench.lookahead";

    la::RunConfig config;
    config.dataset.name = "sparse-miss:16";
    config.dataset.blocks = blocks;
    config.policy = "pg18";
    config.comparePolicy = "pg19";
    la::Experiment experiment = la::makeExperiment(config, la::Comparison::Policy);
    {
        std::vector<Keep> kept(experiment.runs.size());
        const std::vector<la::RunSummary> summaries = runKeeping(experiment, kept, blocks);
        save(file, experiment, kept, summaries);
    } // the kept events go before the session is opened

    QElapsedTimer clock;
    clock.start();
    const la::OpenedSession session = la::openSession(file);
    const auto traces = la::sessionTraces(session);
    const double openSeconds = secondsOf(clock);
    std::uint64_t positions = 0;
    for (const auto& trace : traces)
        positions += trace->positions();
    std::printf("open: %zu runs, %llu positions, traces rebuilt in %.3f s\n", traces.size(),
                static_cast<unsigned long long>(positions), openSeconds);

    return draw(session, traces, openSeconds) ? 0 : 1;
}

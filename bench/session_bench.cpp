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
    std::vector<Keep> kept(experiment.runs.size());
    std::vector<la::RunSummary> summaries;
    QElapsedTimer clock;
    clock.start();
    la::ExperimentCallbacks callbacks;
    callbacks.runStarted = [&kept](int run, std::vector<la::EventSink*>& sinks) {
        sinks.push_back(&kept[static_cast<std::size_t>(run)]);
    };
    summaries =
        la::runExperiment(experiment, {{}, {}, false, "lookahead-session-bench"}, callbacks).summaries;
    std::uint64_t rows = 0;
    for (const Keep& k : kept)
        rows += k.events.size();
    std::printf("runs: %llu blocks A/B, %llu viewed events, %.2f s\n", blocks,
                static_cast<unsigned long long>(rows), static_cast<double>(clock.elapsed()) / 1000.0);

    clock.restart();
    {
        la::SessionWriter writer(file);
        for (std::size_t i = 0; i < experiment.runs.size(); ++i) {
            writer.beginRun(la::sessionRunOf(experiment.runs[i]));
            writer.onEvents(kept[i].events);
            la::endSessionRun(writer, summaries[i]);
        }
        la::finishSession(writer, experiment);
    }
    const double saveSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    struct stat st {};
    ::stat(file.c_str(), &st);
    std::printf("save: %llu events in %.3f s = %.1f M events/s; file %s, %.1f MiB (%.1f bytes/event)\n",
                static_cast<unsigned long long>(rows), saveSeconds,
                static_cast<double>(rows) / saveSeconds / 1e6, file.c_str(),
                static_cast<double>(st.st_size) / 1048576.0,
                static_cast<double>(st.st_size) / static_cast<double>(rows));
    kept.clear();

    clock.restart();
    const la::OpenedSession session = la::openSession(file);
    const auto traces = la::sessionTraces(session);
    const double openSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    std::uint64_t positions = 0;
    for (const auto& trace : traces)
        positions += trace->positions();
    std::printf("open: %zu runs, %llu positions, traces rebuilt in %.3f s\n", traces.size(),
                static_cast<unsigned long long>(positions), openSeconds);

    clock.restart();
    la::Dashboard dashboard;
    std::vector<const la::RunTrace*> shown;
    for (const auto& trace : traces)
        shown.push_back(trace.get());
    dashboard.setRuns(shown);
    dashboard.setVerdict(la::variantVerdict(session.experiment.runs, session.summaries));
    dashboard.setLive(false);
    dashboard.summariesChanged();
    const QImage image = dashboard.renderImage(QSize(1600, 1000), 1.0, QString());
    const double drawSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    std::printf("draw: dashboard 1600x1000 in %.3f s; open and draw %.3f s\n", drawSeconds,
                openSeconds + drawSeconds);
    return image.isNull() ? 1 : 0;
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/session_traces.h"

#include "experiment/run_storage.h"
#include "input_error.h"
#include "io/event_spool.h"
#include "io_backend.h"

#include <thread>

namespace la {

std::vector<std::unique_ptr<RunTrace>>
sessionTraces(const OpenedSession& session, const std::atomic<bool>* cancel,
              const std::function<void(std::uint64_t, std::uint64_t)>& progress,
              std::vector<std::shared_ptr<const EventSpool>>* spools) {
    const SessionReader& reader = *session.reader;
    const std::size_t runs = reader.runs().size();
    std::uint64_t total = 0;
    for (const SessionRun& run : reader.runs())
        total += run.events;
    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> stopped{false};
    std::vector<std::unique_ptr<RunTrace>> traces(runs);
    std::vector<std::string> errors(runs);
    std::vector<std::shared_ptr<EventSpool>> kept(spools ? runs : 0);
    // Each run reads its own rows into its own trace (and spool); only `done` and `stopped` are shared.
    const auto rebuild = [&](const SessionReader& from, std::size_t i, bool reports) {
        const SessionRun& run = reader.runs()[i];
        auto trace = std::make_unique<RunTrace>(
            run.label, RunLimits{run.maxPinned, run.ioCombineLimit, run.collapseWindow});
        if (run.observed)
            trace->markObserved();
        // In this machine's default directory: a saved --cache-dir may not exist here.
        spillBesideDatasets(*trace, RunConfig{});
        if (spools)
            kept[i] = spoolBesideDatasets(RunConfig{});
        from.readEvents(i, [&](std::span<const Event> events) {
            if (stopped.load(std::memory_order_relaxed) ||
                (cancel && cancel->load(std::memory_order_relaxed))) {
                stopped = true;
                return;
            }
            trace->append(events);
            if (spools)
                kept[i]->onEvents(events);
            done += events.size();
            if (reports && progress)
                progress(done.load(), total);
        });
        trace->setSummary(session.summaries[i]);
        traces[i] = std::move(trace);
        if (spools)
            kept[i]->finish();
    };
    // Runs after the first are rebuilt on threads of their own, each with its own connection to
    // the file (a connection is used by one thread at a time): an A/B session opens in about the
    // time of one run.
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < runs; ++i)
        threads.emplace_back([&, i] {
            try {
                const SessionReader own(reader.path());
                rebuild(own, i, false);
            } catch (const std::exception& error) {
                errors[i] = error.what();
                stopped = true;
            }
        });
    try {
        rebuild(reader, 0, true);
    } catch (const std::exception& error) {
        errors[0] = error.what();
        stopped = true;
    }
    for (std::thread& thread : threads)
        thread.join();
    for (const std::string& error : errors)
        if (!error.empty())
            throw InputError(error);
    if (stopped)
        return {};
    if (spools)
        spools->assign(kept.begin(), kept.end());
    return traces;
}

std::string saveSpooledSession(const std::string& path, const Experiment& experiment,
                               const std::vector<RunSummary>& summaries,
                               const std::vector<std::shared_ptr<const EventSpool>>& spools,
                               const std::atomic<bool>* cancel,
                               const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
    try {
        SessionWriter writer(path);
        std::uint64_t total = 0;
        for (const auto& spool : spools)
            total += spool ? spool->events() : 0;
        std::uint64_t before = 0;
        for (std::size_t i = 0; i < experiment.runs.size() && i < summaries.size(); ++i) {
            if (i >= spools.size() || !spools[i])
                continue;
            if (!spools[i]->broken().empty())
                return "cannot write session '" + path + "': run " + experiment.runs[i].label +
                       "'s events were not all kept: " + spools[i]->broken();
            writer.beginRun(sessionRunOf(experiment.runs[i]));
            if (const auto& observed = experiment.runs[i].observed)
                writer.addObserved(*observed);
            const bool complete = spools[i]->replay(writer, cancel, [&](std::uint64_t done, std::uint64_t) {
                if (progress)
                    progress(before + done, total);
            });
            if (!complete)
                return "cancelled: '" + path + "' was not written";
            before += spools[i]->events();
            endSessionRun(writer, summaries[i]);
        }
        finishSession(writer, experiment);
    } catch (const std::exception& error) {
        return error.what();
    }
    return {};
}

} // namespace la

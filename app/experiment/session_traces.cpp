// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/session_traces.h"

#include "experiment/run_storage.h"
#include "input_error.h"
#include "io/event_spool.h"
#include "io_backend.h"
#include "text_parse.h"

#include <thread>

namespace la {

namespace {

// The stream a plan run's plots drew, as its options say (a file's value out of range: the first).
std::uint8_t shownStreamOf(const SessionRun& run) {
    for (const auto& [name, value] : run.options) {
        std::uint64_t stream = 0;
        if (name == "shown-stream" && parseUnsigned(value, stream) && stream < kMaxPlanStreams)
            return static_cast<std::uint8_t>(stream);
    }
    return 0;
}

// A session's runs rebuilt at once. Each run reads its own rows into its own trace (and spool);
// only `m_done` and `m_stopped` are shared between the threads.
class SessionRebuild {
public:
    using Progress = std::function<void(std::uint64_t, std::uint64_t)>;

    SessionRebuild(const OpenedSession& session, const std::atomic<bool>* cancel, const Progress& progress,
                   bool spooled)
        : m_session(session), m_reader(*session.reader), m_cancel(cancel), m_progress(progress),
          m_spooled(spooled), m_traces(m_reader.runs().size()), m_errors(m_reader.runs().size()),
          m_spools(spooled ? m_reader.runs().size() : 0) {
        for (const SessionRun& run : m_reader.runs())
            m_total += run.events;
    }

    // Rebuilds run `i`, the first through the session's own connection (it alone reports progress),
    // the others each through a connection of their own (a connection is used by one thread at a
    // time). An error is kept for result() and stops the other runs.
    void rebuild(std::size_t i) {
        try {
            if (i == 0) {
                readRun(m_reader, 0, true);
            } else {
                const SessionReader own(m_reader.path());
                readRun(own, i, false);
            }
        } catch (const std::exception& error) {
            m_errors[i] = error.what();
            m_stopped = true;
        }
    }

    // The traces, once every run is rebuilt; empty if cancelled. Throws the first run's error.
    std::vector<std::unique_ptr<RunTrace>> result(std::vector<std::shared_ptr<const EventSpool>>* spools) {
        for (const std::string& error : m_errors)
            if (!error.empty())
                throw InputError(error);
        if (m_stopped)
            return {};
        if (spools)
            spools->assign(m_spools.begin(), m_spools.end());
        return std::move(m_traces);
    }

private:
    // Rebuilds run `i`'s trace (and spool) from its events as `from` reads them.
    void readRun(const SessionReader& from, std::size_t i, bool reports) {
        const SessionRun& run = m_reader.runs()[i];
        auto trace =
            std::make_unique<RunTrace>(run.label, RunLimits{run.maxPinned, run.ioCombineLimit,
                                                            run.collapseWindow, 0, shownStreamOf(run)});
        if (run.observed)
            trace->markObserved();
        // In this machine's default directory: a saved --cache-dir may not exist here.
        spillBesideDatasets(*trace, RunConfig{});
        if (m_spooled)
            m_spools[i] = spoolBesideDatasets(RunConfig{});
        from.readEvents(i, [&](std::span<const Event> events) {
            if (m_stopped.load(std::memory_order_relaxed) ||
                (m_cancel && m_cancel->load(std::memory_order_relaxed))) {
                m_stopped = true;
                return;
            }
            trace->append(events);
            if (m_spooled)
                m_spools[i]->onEvents(events);
            m_done += events.size();
            if (reports && m_progress)
                m_progress(m_done.load(), m_total);
        });
        trace->setSummary(m_session.summaries[i]);
        m_traces[i] = std::move(trace);
        if (m_spooled)
            m_spools[i]->finish();
    }

    const OpenedSession& m_session;
    const SessionReader& m_reader;
    const std::atomic<bool>* m_cancel;
    const Progress& m_progress;
    const bool m_spooled;
    std::uint64_t m_total = 0;
    std::atomic<std::uint64_t> m_done{0};
    std::atomic<bool> m_stopped{false};
    std::vector<std::unique_ptr<RunTrace>> m_traces;
    std::vector<std::string> m_errors;
    std::vector<std::shared_ptr<EventSpool>> m_spools;
};

} // namespace

std::vector<std::unique_ptr<RunTrace>>
sessionTraces(const OpenedSession& session, const std::atomic<bool>* cancel,
              const std::function<void(std::uint64_t, std::uint64_t)>& progress,
              std::vector<std::shared_ptr<const EventSpool>>* spools) {
    SessionRebuild runs(session, cancel, progress, spools != nullptr);
    // Runs after the first are rebuilt on threads of their own: an A/B session opens in about the
    // time of one run.
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < session.reader->runs().size(); ++i)
        threads.emplace_back([&runs, i] { runs.rebuild(i); });
    runs.rebuild(0);
    for (std::thread& thread : threads)
        thread.join();
    return runs.result(spools);
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
            beginSessionRun(writer, experiment.runs[i]);
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

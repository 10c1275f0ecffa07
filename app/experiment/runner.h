// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "io/event_spool.h"
#include "run.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace la {

// What an experiment writes as it runs, besides what its front end draws or prints. Each is opened
// before the first run (a file that cannot be created is bad input: nothing runs) and put in place
// after the last, so a failed or cancelled experiment leaves an existing file as it was.
struct ExperimentOutputs {
    std::string eventCsv;     // every event of every run, one row each, labelled with the run
    std::string session;      // a session file of the runs and their summaries
    bool spoolEvents = false; // keep each run's events in a spool beside the datasets (later exports)
    std::string commandLine;  // for the provenance
    // Fill experiment.provenance (probes the machine: a sweep's thousands of small cells go without).
    bool provenance = true;
    // The blocks in the first modelled run's shared buffers when it ended, one per line: a block
    // list the next run starts from with --prewarm list:FILE (docs/read-stream-model.md §14).
    std::string cacheAfter;
};

// How a front end follows an experiment. Every member may be empty; all are called on the thread
// that runs the experiment.
struct ExperimentCallbacks {
    // After the outputs are open, before the first run: the front end's own checks and opening
    // (throwing InputError stops the experiment before anything runs).
    std::function<void()> ready;
    // Run `run` starts: `sinks` gets the front end's own sinks for its events.
    std::function<void(int run, std::vector<EventSink*>& sinks)> runStarted;
    // Run `run` ended (finished, cancelled or failed); `spool` holds its events if they were spooled.
    std::function<void(int run, const RunSummary& summary, std::shared_ptr<EventSpool> spool)> runFinished;
    // A repeated run (--repeat, docs/repeats.md): repeat `repeat` (0-based, of `repeats`) of run
    // `run` starts, `sinks` getting the front end's sinks for its events, or has ended. Once every
    // repeat has ended, runStarted, the median repeat's events replayed and runFinished follow for
    // each run in order, as for a run that went once.
    std::function<void(int run, int repeat, int repeats, std::vector<EventSink*>& sinks)> repeatStarted;
    std::function<void(int run, int repeat, const RunSummary& summary)> repeatFinished;
    std::function<void(int run, std::uint64_t done, std::uint64_t total)> progress;
    std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)> preparing;
    std::function<void(int run, const std::string& text)> notice;
    const std::atomic<bool>* cancel = nullptr;
};

struct ExperimentResult {
    std::vector<RunSummary> summaries; // the runs that ran (from `firstRun`), in order
    // Outputs that could not be written, each a message naming its file.
    std::vector<std::string> writeErrors;
    bool stopped = false;        // a run was cancelled or failed: the runs after it did not run
    bool sessionWritten = false; // the session file is in place
};

// The one driver of an experiment, for every front end (CLI, window, exports, sweeps, benches): runs
// `experiment`'s runs in turn from `firstRun` (the runs before it are a saved baseline, already
// run), replays observed runs as events, feeds every sink, stops at the first cancelled or failed
// run, then fills `experiment.provenance` and commits the outputs. Runs with real I/O and a repeat
// above 1 go that many times, interleaved; each run's summary is then its median repeat's, with
// every repeat's in RunSummary::repeats, and the outputs keep the median repeat's events. Throws InputError
// for bad input found before anything ran (an output that cannot be created, a dataset that cannot be
// opened).
ExperimentResult runExperiment(Experiment& experiment, const ExperimentOutputs& outputs,
                               const ExperimentCallbacks& callbacks, int firstRun = 0);

} // namespace la

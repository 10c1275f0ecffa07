// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed/observed_trace.h"
#include "run.h"

#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace la {

// One run of an experiment: its settings, its policy and the name the views give it.
struct RunVariant {
    RunConfig config;
    std::string policy;
    std::string label;
    // An imported trace replayed as a run (instead of running `policy`), and the file it came from.
    std::shared_ptr<const ObservedTrace> observed;
    std::string tracePath;
    // The query's EXPLAIN (ANALYZE, BUFFERS[, IO]) output, whose scan node's figures the observed run
    // takes (docs/explain-output.md); empty: none.
    std::string explainPath;
};

// What B changes relative to A (same dataset, same cache state). Observed: A is an imported trace,
// B the model of its block sequence. IndexBatches: B meets the index's leaf pages another way
// (config.pg.compareBatching, or ring against A's continue/reset and continue against A's ring).
// RestoreAfterReset: B keeps the distance across the stream's resets where A does not, or the other
// way round (docs/read-stream-model.md §8.3): a nested loop's rescans, a block list's resets.
enum class Comparison {
    None,
    Policy,
    Direction,
    BackwardCombining,
    Observed,
    IndexBatches,
    RestoreAfterReset
};

// "none", "policy", "direction", "backward-combining", "observed", "index-batches",
// "restore-after-reset": the compare mode in the summary JSON and a session.
const char* comparisonName(Comparison comparison);
std::optional<Comparison> comparisonNamed(std::string_view name);

// A run whose time is a measurement: real I/O, not the simulated device nor a replay of an imported
// trace. Only such runs repeat, and only their threads keep their priority.
bool timesRealIo(const RunVariant& variant);

// A alone, or A then B. The CLI, the window and the exports all describe runs by this.
struct Experiment {
    std::vector<RunVariant> runs;
    Comparison comparison = Comparison::None;
    // Where and how it ran (core/session/provenance.h), once known: the summary JSON and the plot
    // files' metadata carry it, a session file keeps it.
    std::vector<std::pair<std::string, std::string>> provenance;
    // A query recorded on a live server (`lookahead record`, docs/recording.md): its server, query,
    // plans, visits and cache at the start, as the summary JSON's "recorded"; empty otherwise.
    QJsonObject recorded;
    // Everything the front ends were told about it besides the recording's own notes ("recorded"'s
    // "notes"): the import's notes, the model's choices, each run's notices, in the order said. The
    // command line prints each as it comes; the window lists them under the verdict; a session keeps
    // them (docs/session-format.md).
    std::vector<std::string> notes;
};

// Comparison::Policy uses config.comparePolicy (and falls back to None without one).
Experiment makeExperiment(const RunConfig& config, Comparison comparison);

// What the model of an imported trace visits: the blocks the trace read (every visit a miss), or the
// scan's own visits as `config` chooses them (a PostgreSQL index scan, a block list, a pattern over the
// traced relation) with the cache state the trace implies (docs/trace-import.md §6).
enum class ModelVisits { TraceReads, FromConfig };

// Whether two paths name the same relation file: the same path, the same file here, or (a trace
// written on another machine, a path relative to the data directory) the one ends in the other's
// last components ("base/5/16390").
bool sameRelationFile(const std::string& a, const std::string& b);

// Why the model `config` describes cannot be the model of `trace`: it scans a relation (--pg-heap)
// the trace did not read, with what to do; empty where it can. A trace is never joined to a scan of
// another relation (one left from an earlier experiment in the window) without this being said.
std::string traceRelationMismatch(const ObservedTrace& trace, const std::string& tracePath,
                                  const RunConfig& config);

// A: what the trace at `tracePath` says PostgreSQL read; B: its model, run through
// `config.comparePolicy` (or `config.policy`) with `config`'s device and stream settings. The model
// reads the traced relation's own files where they are readable here (and `config` names no other).
// Throws InputError where the scan's visits are of a relation the trace did not read
// (traceRelationMismatch()).
Experiment makeImportExperiment(std::shared_ptr<const ObservedTrace> trace, const std::string& tracePath,
                                const RunConfig& config, ModelVisits visits);

// What makeImportExperiment chose for the model that the user should be told (its files, its
// visits), a line each.
std::vector<std::string> importModelNotes(const Experiment& experiment);

} // namespace la

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
enum class Comparison { None, Policy, Direction, BackwardCombining, Observed, IndexBatches };

// "none", "policy", "direction", "backward-combining", "observed", "index-batches": the compare mode
// in the summary JSON and a session.
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
};

// Comparison::Policy uses config.comparePolicy (and falls back to None without one).
Experiment makeExperiment(const RunConfig& config, Comparison comparison);

// What the model of an imported trace visits: the blocks the trace read (every visit a miss), or the
// scan's own visits as `config` chooses them (a PostgreSQL index scan, a block list, a pattern over the
// traced relation) with the cache state the trace implies (docs/trace-import.md §6).
enum class ModelVisits { TraceReads, FromConfig };

// A: what the trace at `tracePath` says PostgreSQL read; B: its model, run through
// `config.comparePolicy` (or `config.policy`) with `config`'s device and stream settings. The model
// reads the traced relation's own files where they are readable here (and `config` names no other).
Experiment makeImportExperiment(std::shared_ptr<const ObservedTrace> trace, const std::string& tracePath,
                                const RunConfig& config, ModelVisits visits);

// What makeImportExperiment chose for the model that the user should be told (its files, its
// visits), a line each.
std::vector<std::string> importModelNotes(const Experiment& experiment);

} // namespace la

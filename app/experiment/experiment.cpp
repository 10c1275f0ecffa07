// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment.h"

#include "enum_names.h"
#include "input_error.h"
#include "message_text.h"
#include "pg/pg_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace la {

namespace {

constexpr EnumName<Comparison> kComparisonNames[] = {
    {Comparison::None, "none"},
    {Comparison::Policy, "policy"},
    {Comparison::Direction, "direction"},
    {Comparison::BackwardCombining, "backward-combining"},
    {Comparison::Observed, "observed"},
    {Comparison::IndexBatches, "index-batches"},
    {Comparison::RestoreAfterReset, "restore-after-reset"},
};
static_assert(namesEvery(kComparisonNames, Comparison::RestoreAfterReset));

// B's index batches: the ones asked for, else the patch's ring against the older forms.
pg::IndexBatching otherBatching(const pg::PgScanConfig& a) {
    if (a.compareBatching)
        return *a.compareBatching;
    return {a.batching.mode == pg::IndexBatches::Ring ? pg::IndexBatches::Continue : pg::IndexBatches::Ring};
}

// Appended piece by piece: GCC 12 at -O3 takes "'" + a temporary string for an overlapping copy
// (-Wrestrict, a false alarm that warnings-as-errors makes fatal).
std::string quotedPath(const std::string& path) {
    std::string quoted(1, '\'');
    quoted += printable(path);
    quoted += '\'';
    return quoted;
}

// A relation file this process can read (the server's, on this machine).
bool readableHere(const std::string& path) {
    return !path.empty() && ::access(path.c_str(), R_OK) == 0;
}

} // namespace

const char* comparisonName(Comparison comparison) {
    return nameIn(kComparisonNames, comparison, "none");
}

std::optional<Comparison> comparisonNamed(std::string_view name) {
    return valueNamed(kComparisonNames, name);
}

bool timesRealIo(const RunVariant& variant) {
    return !variant.observed && variant.config.io != IoMode::Sim;
}

Experiment makeExperiment(const RunConfig& config, Comparison comparison) {
    RunVariant a;
    a.config = config;
    a.policy = a.label = config.policy;
    if (comparison == Comparison::Policy && config.comparePolicy.empty())
        comparison = Comparison::None;
    a.config.pg.compareBatching.reset(); // each run's settings are its own
    if (comparison == Comparison::None) {
        a.config.comparePolicy.clear();
        return {{a}, comparison, {}, {}, {}};
    }
    RunVariant b = a;
    switch (comparison) {
    case Comparison::Policy:
        b.policy = b.label = config.comparePolicy;
        break;
    case Comparison::Direction:
        b.config.dataset.direction =
            config.dataset.direction == Direction::Forward ? Direction::Backward : Direction::Forward;
        // Appended in two steps: `" " + std::string` trips GCC 12's -Wrestrict false positive at -O3
        // (GCC bug 105329).
        for (RunVariant* run : {&a, &b})
            run->label.append(1, ' ').append(directionName(run->config.dataset.direction));
        break;
    case Comparison::BackwardCombining:
        b.config.stream.backwardCombining = !config.stream.backwardCombining;
        (config.stream.backwardCombining ? a : b).label += " + backward combining";
        break;
    case Comparison::IndexBatches:
        b.config.pg.batching = otherBatching(config.pg);
        for (RunVariant* run : {&a, &b})
            run->label.append(" batches ").append(pg::indexBatchingText(run->config.pg.batching));
        break;
    case Comparison::RestoreAfterReset:
        b.config.stream.restoreAfterReset = !config.stream.restoreAfterReset;
        (config.stream.restoreAfterReset ? a : b).label += " + restore after reset";
        break;
    case Comparison::None:
    case Comparison::Observed:
        break;
    }
    if (comparison != Comparison::Policy) {
        a.config.comparePolicy.clear();
        b.config.comparePolicy.clear();
    }
    return {{a, b}, comparison, {}, {}, {}};
}

bool sameRelationFile(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty())
        return false;
    if (a == b)
        return true;
    struct stat x {
    }, y{};
    if (::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0)
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
    // The shorter one's last three components (base/DB/FILENODE), whole, at the end of the other.
    const std::string& shorter = a.size() < b.size() ? a : b;
    const std::string& longer = a.size() < b.size() ? b : a;
    std::size_t start = shorter.size();
    for (int components = 0; components < 3 && start != std::string::npos; ++components)
        start = start == 0 ? std::string::npos : shorter.rfind('/', start - 1);
    const std::string tail = start == std::string::npos ? shorter : shorter.substr(start + 1);
    return longer == tail || longer.ends_with('/' + tail);
}

std::string traceRelationMismatch(const ObservedTrace& trace, const std::string& tracePath,
                                  const RunConfig& config) {
    // Lookahead's own event CSV names a run, not the files it read: nothing to check it against.
    if (config.pg.heap.empty() || trace.format == TraceFormat::LookaheadCsv)
        return {};
    const std::string heap = pg::resolvePath(config.pg, config.pg.heap);
    if (sameRelationFile(trace.relation, heap))
        return {};
    const bool readLess = std::ranges::any_of(
        trace.files, [&heap](const TracedFile& file) { return sameRelationFile(file.name, heap); });
    const std::string traceName = "trace " + quotedPath(tracePath);
    const std::string table = printable(heap);
    const std::string mostRead = printable(trace.relation);
    if (readLess)
        return traceName + " read " + mostRead + " most, and the scan's visits are of the table " + table +
               " (--pg-heap), which it read less: choose that file (--trace-relation " + table + ")";
    return traceName + " has no reads of the table " + table +
           " whose visits the model would replay (--pg-heap; the trace read " + mostRead +
           " most): import a trace of that table's scan, or model the trace's own reads without the index "
           "scan (no --pg-index, --pg-heap)";
}

Experiment makeImportExperiment(std::shared_ptr<const ObservedTrace> trace, const std::string& tracePath,
                                const RunConfig& config, ModelVisits visits) {
    if (visits == ModelVisits::FromConfig)
        if (const std::string why = traceRelationMismatch(*trace, tracePath, config); !why.empty())
            throw InputError(why);
    RunVariant observed;
    observed.policy = observed.label = "observed";
    observed.config = config;
    observed.observed = trace;
    observed.tracePath = tracePath;
    RunVariant model;
    model.config = config;
    model.policy = config.comparePolicy.empty() ? config.policy : config.comparePolicy;
    model.label = model.policy + " model";
    model.config.comparePolicy.clear();
    auto reads = std::make_shared<const std::vector<std::uint32_t>>(trace->impliedBlocks());
    const bool ownFile = !config.pg.active() && config.file.empty() && readableHere(trace->relation);
    if (ownFile) {
        model.config.file = trace->relation;
        model.config.fileIsRelation = true;
    }
    if (visits == ModelVisits::TraceReads) {
        model.config.blockList.clear();
        model.config.pg = {};
        model.config.blockSequence = std::move(reads);
    } else {
        model.config.blockSequence.reset();
        model.config.tracedReads = std::move(reads);
        // A pattern covers the traced relation: its files' size where they are here (openSource takes
        // it from the file), else as far as the trace read.
        const bool pattern = config.blockList.empty() && !config.pg.active();
        if (pattern && model.config.dataset.blocks == 0 && !ownFile)
            model.config.dataset.blocks = trace->relationBlocks();
    }
    return {{observed, model}, Comparison::Observed, {}, {}, {}};
}

std::vector<std::string> importModelNotes(const Experiment& experiment) {
    std::vector<std::string> notes;
    if (experiment.comparison != Comparison::Observed || experiment.runs.size() != 2)
        return notes;
    const RunConfig& model = experiment.runs[1].config;
    const ObservedTrace& trace = *experiment.runs[0].observed;
    if (model.blockSequence)
        notes.push_back("the model replays the " + std::to_string(model.blockSequence->size()) +
                        " blocks the trace read, each a miss: give the scan's visits (a PostgreSQL index, a "
                        "block list or a pattern) to model its hits too");
    const bool pattern = !model.blockSequence && model.blockList.empty() && !model.pg.active();
    if (pattern && !model.fileIsRelation && model.dataset.blocks == trace.relationBlocks())
        notes.push_back("the pattern covers " + std::to_string(model.dataset.blocks) +
                        " blocks, as far as the trace read: the relation's files are not here to give its "
                        "size (set it with --pattern-blocks N)");
    if (model.fileIsRelation && model.io != IoMode::Sim)
        notes.push_back("the model's real I/O reads the server's own files: " + printable(model.file) +
                        " (read-only, all its segments)");
    else if (model.file.empty() && !model.pg.active() && model.io != IoMode::Sim)
        notes.push_back("the traced relation " + printable(trace.relation) +
                        " is not readable here, so the model's real I/O reads a file of Lookahead's own of "
                        "the same size");
    return notes;
}

} // namespace la

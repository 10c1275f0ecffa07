// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_fields.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace la {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr FieldStore Both = FieldStore::Both;
constexpr FieldStore Json = FieldStore::Json;
constexpr FieldStore Session = FieldStore::Session;

constexpr FieldFormat kText{FieldFormat::Text};
constexpr FieldFormat kCount{FieldFormat::Count};
constexpr FieldFormat kWhole{FieldFormat::Whole};
constexpr FieldFormat kPairs{FieldFormat::Pairs};
constexpr FieldFormat kOwn{FieldFormat::Own};
constexpr FieldFormat fixed(int decimals, double divisor = 1.0) {
    return {FieldFormat::Fixed, decimals, divisor};
}
constexpr FieldFormat kPercent{FieldFormat::Percent, 1};

// `Member` of a summary: a pointer to a member of RunSummary, or a function that picks a figure
// out of one, const or not.
template <auto Member> auto& at(auto& s) {
    if constexpr (std::is_member_object_pointer_v<decltype(Member)>)
        return s.*Member;
    else
        return Member(s);
}

// A figure kept in the summary.
template <auto Member>
constexpr SummaryField stored(std::string_view name, FieldStore store, std::string_view label,
                              std::string_view unit, FieldFormat format, std::uint16_t flags = 0) {
    return {name,
            store,
            label,
            unit,
            format,
            flags,
            [](const RunSummary& s) -> FieldView { return &at<Member>(s); },
            [](RunSummary& s) -> FieldSlot { return &at<Member>(s); },
            nullptr};
}

// The counters behind EXPLAIN's averages: a session keeps them, the JSON their averages.
template <auto Member> constexpr SummaryField explainCounter(std::string_view name, FieldFormat format) {
    constexpr auto counter = [](auto& s) -> auto& {
        return s.explainIo.*Member;
    };
    return stored<counter>(name, Session, "", "", format, kInExport | kInImport);
}

// An index scan's facts: a session keeps them (for a run that has them), the JSON them with shares.
template <auto Member>
constexpr SummaryField indexFact(std::string_view name, FieldFormat format,
                                 std::uint16_t flags = kInPgIndex) {
    constexpr auto fact = [](auto& s) -> auto& {
        return (*s.pgIndex).*Member;
    };
    return stored<fact>(name, Session, "", "", format, kPgIndex | flags);
}

// An index scan's steps of one kind as a share of the steps between its visits; none without one.
template <auto Member> double stepShare(const RunSummary& s) {
    if (!s.pgIndex)
        return kNaN;
    const pg::IndexFacts& f = *s.pgIndex;
    return static_cast<double>(f.*Member) / (f.visits > 1 ? static_cast<double>(f.visits - 1) : 1.0);
}

// A figure computed from the others wherever it is shown.
constexpr SummaryField derived(std::string_view name, std::string_view label, std::string_view unit,
                               FieldFormat format, std::uint16_t flags, double (*value)(const RunSummary&)) {
    return {name, FieldStore::Derived, label, unit, format, flags, nullptr, nullptr, value};
}

// Blocks per read, from the reads' sizes: a read that joined one already in flight counts its blocks
// too, though it moved no bytes (bytes_read counts only what reached the device) and PostgreSQL
// counts them as hits. EXPLAIN's I/O size (explain_io.h) is the same figure.
double meanReadBlocks(const RunSummary& s) {
    std::uint64_t reads = 0, blocks = 0;
    for (const auto& [size, count] : s.ioSizeHist) {
        reads += count;
        blocks += static_cast<std::uint64_t>(size) * count;
    }
    return reads ? static_cast<double>(blocks) / static_cast<double>(reads) : 0.0;
}

// MiB per second of run time; none for a run that took no time.
double readThroughput(const RunSummary& s) {
    const double seconds = static_cast<double>(s.runtimeNs) / 1e9;
    return seconds > 0 ? static_cast<double>(s.bytesRead) / (1024.0 * 1024.0) / seconds : kNaN;
}

// EXPLAIN (ANALYZE, IO)'s figures as explain.c computes them; none where the run has none: an observed
// run has no stream whose pins or waits it saw, and explain.c divides by no zero count.
bool prefetchSampled(const RunSummary& s) {
    return s.explainIo.prefetchKnown && s.explainIo.prefetchCount > 0;
}

double explainPrefetchAvg(const RunSummary& s) {
    return prefetchSampled(s) ? s.explainIo.prefetchAvg() : kNaN;
}

double explainPrefetchMax(const RunSummary& s) {
    return prefetchSampled(s) ? s.explainIo.distanceMax : kNaN;
}

double explainPrefetchCapacity(const RunSummary& s) {
    return s.explainIo.prefetchKnown ? s.explainIo.distanceCapacity : kNaN;
}

double explainIoCount(const RunSummary& s) {
    return static_cast<double>(s.explainIo.ioCount);
}

double explainWaits(const RunSummary& s) {
    return s.explainIo.waitsKnown ? static_cast<double>(s.explainIo.waitCount) : kNaN;
}

double explainIoSizeAvg(const RunSummary& s) {
    return s.explainIo.ioCount > 0 ? s.explainIo.ioSizeAvg() : kNaN;
}

double explainIoInProgressAvg(const RunSummary& s) {
    return s.explainIo.ioCount > 0 ? s.explainIo.ioInProgressAvg() : kNaN;
}

// The mean distance over the buffers handed out while the stream was looking ahead: without those
// handed out after their scan's end, at distance 0 (docs/read-stream-model.md §1, "Distance").
double distanceMeanAhead(const RunSummary& s) {
    const std::uint64_t ahead = s.blocks - std::min(s.blocks, s.blocksAfterEnd);
    return ahead > 0 ? s.distanceMean * static_cast<double>(s.blocks) / static_cast<double>(ahead) : kNaN;
}

// Blocks handed out while the distance was stuck at 1 <-> 2.
double collapsedBlocks(const RunSummary& s) {
    std::uint64_t blocks = 0;
    for (const auto& [first, last] : s.collapseIntervals)
        blocks += last - first + 1;
    return static_cast<double>(blocks);
}

// The order is the session's (docs/session-format.md); the JSON's keys are sorted by Qt.
constexpr SummaryField kFields[] = {
    stored<&RunSummary::policy>("policy", Both, "Policy", "", kText, kInExport),
    stored<&RunSummary::mechanics>("mechanics", Both, "Mechanics", "", kText),
    stored<&RunSummary::streamFlags>("stream_flags", Both, "Stream flags", "", kText,
                                     kNotInTrace | kNewerField),
    stored<&RunSummary::reversedRanges>("reversed_ranges", Both, "Reversed ranges", "", kCount,
                                        kNotInTrace | kNewerField),
    stored<&RunSummary::blocks>("blocks", Both, "Blocks", "blocks", kCount, kInExport | kInImport),
    stored<&RunSummary::hits>("hits", Both, "Hits", "blocks", kCount, kNotInTrace | kInExport),
    stored<&RunSummary::misses>("misses", Both, "Misses", "blocks", kCount, kNotInTrace | kInExport),
    stored<&RunSummary::ios>("ios", Both, "I/Os", "", kCount, kInExport | kInImport),
    stored<&RunSummary::ioSizeHist>("io_size_hist", Both, "Read sizes", "blocks:reads", kPairs,
                                    kInExport | kInImport),
    stored<&RunSummary::deviceReads>("device_reads", Both, "Device reads", "", kCount, kInExport | kInImport),
    stored<&RunSummary::pageCacheKnown>("page_cache_known", Both, "Page-cache reads known", "", kOwn,
                                        kNewerField | kInExport | kInImport),
    stored<&RunSummary::pageCacheReads>("page_cache_reads", Both, "Page-cache reads", "", kCount,
                                        kNewerField | kInExport | kInImport),
    stored<&RunSummary::pageCacheThresholdNs>("page_cache_threshold_ns", Both, "Page-cache threshold", "µs",
                                              fixed(1, 1e3), kNewerField | kInExport | kInImport),
    stored<&RunSummary::pageCacheBasis>("page_cache_basis", Both, "Page cache told apart by", "", kText,
                                        kJsonWhenSet | kNewerField | kInExport | kInImport),
    stored<&RunSummary::deviceReadAheadReads>("device_readahead_reads", Both, "Device read-ahead reads", "",
                                              kCount, kNewerField | kInExport),
    stored<&RunSummary::bytesRead>("bytes_read", Both, "Bytes read", "MiB", fixed(1, 1048576.0),
                                   kInExport | kInImport),
    stored<&RunSummary::waits>("waits", Both, "Waits", "", kCount, kVaries | kInExport | kInImport),
    stored<&RunSummary::waitNs>("wait_ns", Both, "Wait time", "ms", fixed(1, 1e6),
                                kVaries | kInExport | kInImport),
    stored<&RunSummary::waitsUnknown>("waits_unknown", Both, "Waits unknown", "", kOwn,
                                      kNewerField | kInExport | kInImport),
    stored<&RunSummary::waitTimeUnknown>("wait_time_unknown", Both, "Wait time unknown", "", kOwn,
                                         kNewerField | kInExport | kInImport),
    stored<&RunSummary::waitsScope>("waits_scope", Both, "Waits are", "", kText,
                                    kJsonWhenSet | kNewerField | kInExport | kInImport),
    stored<&RunSummary::runtimeNs>("runtime_ns", Both, "Run time", "s", fixed(3, 1e9),
                                   kVaries | kInExport | kInImport),
    stored<&RunSummary::resets>("resets", Both, "Resets (rescans)", "", kCount, kNotInTrace | kInExport),
    stored<&RunSummary::distanceAfterResetMean>("distance_after_reset_mean", Both,
                                                "Distance after a reset (mean)", "blocks", fixed(2),
                                                kNotInTrace | kJsonWhenSet | kNewerField | kInExport),
    stored<&RunSummary::readsBeforeStream>("reads_before_stream", Both, "Reads before the stream", "", kCount,
                                           kNotInTrace | kNewerField),
    stored<&RunSummary::waitsBeforeStream>("waits_before_stream", Both, "Waits before the stream", "", kCount,
                                           kNotInTrace | kNewerField),
    stored<&RunSummary::distanceMean>("distance_mean", Both, "Mean distance", "blocks", fixed(2),
                                      kNotInTrace | kInExport),
    stored<&RunSummary::blocksAfterEnd>("blocks_after_end", Both, "Blocks after their scan's end", "blocks",
                                        kCount, kNotInTrace | kNewerField | kInExport),
    stored<&RunSummary::distanceTimeMean>("distance_time_mean", Both, "Time-weighted distance", "blocks",
                                          fixed(2), kNotInTrace),
    stored<&RunSummary::distanceMax>("distance_max", Both, "Max distance", "blocks", kWhole,
                                     kNotInTrace | kInExport),
    stored<&RunSummary::fracDistanceLe2>("frac_distance_le2", Both, "Blocks at distance ≤ 2", "%", kPercent,
                                         kNotInTrace | kInExport),
    stored<&RunSummary::pinnedMean>("pinned_mean", Both, "Mean pinned", "buffers", fixed(2), kNotInTrace),
    stored<&RunSummary::inFlightMean>("in_flight_mean", Both, "Mean in flight", "reads", fixed(2),
                                      kNotInTrace),
    stored<&RunSummary::maxPinned>("max_pinned", Both, "max_pinned", "buffers", kWhole,
                                   kNotInTrace | kInExport),
    stored<&RunSummary::ioCombineLimit>("io_combine_limit", Both, "io_combine_limit", "blocks", kWhole,
                                        kNotInTrace | kInExport),
    stored<&RunSummary::sharedBuffers>("shared_buffers", Both, "Shared buffers", "blocks", kCount,
                                       kNotInTrace | kNewerField),
    stored<&RunSummary::strategy>("strategy", Both, "Buffer strategy", "", kText,
                                  kNotInTrace | kJsonWhenSet | kNewerField),
    stored<&RunSummary::ringBuffers>("ring_buffers", Both, "Ring", "buffers", kWhole,
                                     kNotInTrace | kNewerField),
    stored<&RunSummary::residentAfter>("resident_after", Both, "Resident after the run", "blocks", kCount,
                                       kNotInTrace | kNewerField),
    stored<&RunSummary::collapseIntervals>("collapse_intervals", Both, "Collapses", "", kCount,
                                           kNotInTrace | kInExport),
    explainCounter<&ExplainIo::prefetchCount>("explain.prefetch_count", kCount),
    explainCounter<&ExplainIo::distanceSum>("explain.distance_sum", kCount),
    explainCounter<&ExplainIo::distanceMax>("explain.distance_max", kWhole),
    explainCounter<&ExplainIo::distanceCapacity>("explain.distance_capacity", kWhole),
    explainCounter<&ExplainIo::waitCount>("explain.wait_count", kCount),
    explainCounter<&ExplainIo::ioCount>("explain.io_count", kCount),
    explainCounter<&ExplainIo::ioBlocks>("explain.io_blocks", kCount),
    explainCounter<&ExplainIo::ioInProgress>("explain.io_in_progress", kCount),
    explainCounter<&ExplainIo::prefetchKnown>("explain.prefetch_known", kOwn),
    explainCounter<&ExplainIo::waitsKnown>("explain.waits_known", kOwn),
    stored<&RunSummary::explainIo>("explain_io", Json, "EXPLAIN (ANALYZE, IO)", "", kOwn,
                                   kInExport | kInImport),
    stored<&RunSummary::ioMethodUsed>("io_method_used", Both, "I/O method", "", kText, kInExport),
    stored<&RunSummary::fallbackReason>("fallback_reason", Both, "Fallback", "", kText, kInExport),
    stored<&RunSummary::directIo>("direct_io", Both, "O_DIRECT", "", kOwn),
    stored<&RunSummary::ioWorkersStart>("io_workers_start", Both, "I/O workers at the start", "workers",
                                        kWhole, kNewerField | kInExport),
    stored<&RunSummary::ioWorkersEnd>("io_workers_end", Both, "I/O workers at the end", "workers", kWhole,
                                      kNewerField | kInExport),
    stored<&RunSummary::ioWorkersPeak>("io_workers_peak", Both, "Most I/O workers", "workers", kWhole,
                                       kNewerField | kInExport),
    stored<&RunSummary::pagesVerified>("pages_verified", Both, "Pages verified", "", kCount),
    stored<&RunSummary::osCacheResidentBefore>("os_cache_resident_before", Both,
                                               "OS page cache resident before", "%", kPercent),
    stored<&RunSummary::osCacheResidentAfter>("os_cache_resident_after", Both, "OS page cache resident after",
                                              "%", kPercent),
    indexFact<&pg::IndexFacts::indexBlocks>("pg.index_blocks", kCount),
    indexFact<&pg::IndexFacts::leafPages>("pg.leaf_pages", kCount),
    indexFact<&pg::IndexFacts::tids>("pg.tids", kCount),
    indexFact<&pg::IndexFacts::postingLists>("pg.posting_lists", kCount),
    indexFact<&pg::IndexFacts::deadItems>("pg.dead_items", kCount),
    indexFact<&pg::IndexFacts::visits>("pg.visits", kCount),
    indexFact<&pg::IndexFacts::distinctBlocks>("pg.distinct_blocks", kCount),
    indexFact<&pg::IndexFacts::ascendingSteps>("pg.ascending_steps", kCount, 0),
    indexFact<&pg::IndexFacts::descendingSteps>("pg.descending_steps", kCount, 0),
    indexFact<&pg::IndexFacts::randomSteps>("pg.random_steps", kCount, 0),
    indexFact<&pg::IndexFacts::checksums>("pg.checksums", kOwn, 0),
    stored<&RunSummary::pgIndex>("pg_index", Json, "Index scan", "", kOwn, kJsonWhenSet | kInExport),
    stored<&RunSummary::cacheFromTrace>("cache_from_trace", Both, "Cache state from the trace", "", kText,
                                        kJsonWhenSet | kNewerField),
    stored<&RunSummary::serverExplain>("server_explain", Session, "PostgreSQL's EXPLAIN", "", kText,
                                       kNewerField | kInExport),
    stored<&RunSummary::traceDisagreements>("trace_disagreements", Both, "Reads the visits do not explain",
                                            "", kCount, kNotInTrace | kNewerField),
    stored<&RunSummary::reconciliation>("reconciliation", Session, "Reconciliation", "", kText,
                                        kNotInTrace | kNewerField),
    stored<&RunSummary::cancelled>("cancelled", Both, "Cancelled", "", kOwn, kInExport),
    stored<&RunSummary::error>("error", Both, "Error", "", kText, kJsonWhenSet | kInExport),
    derived("mean_read_blocks", "Mean I/O size", "blocks", fixed(2), kInExport, meanReadBlocks),
    derived("read_throughput", "Read throughput", "MiB/s", fixed(1), kVaries | kInExport, readThroughput),
    derived("explain_prefetch_avg", "EXPLAIN prefetch distance", "blocks", fixed(1), kVaries | kInExplainIo,
            explainPrefetchAvg),
    derived("explain_prefetch_max", "EXPLAIN prefetch max", "blocks", fixed(0), kInExplainIo,
            explainPrefetchMax),
    derived("explain_prefetch_capacity", "EXPLAIN prefetch capacity", "blocks", fixed(0), kInExplainIo,
            explainPrefetchCapacity),
    derived("explain_io_count", "EXPLAIN I/O count", "", kCount, kInExplainIo, explainIoCount),
    derived("explain_io_waits", "EXPLAIN I/O waits", "", kCount, kVaries | kInExplainIo, explainWaits),
    derived("explain_io_size_avg", "EXPLAIN I/O size", "blocks", fixed(2), kInExplainIo, explainIoSizeAvg),
    derived("explain_io_inprogress_avg", "EXPLAIN I/Os in progress", "", fixed(2), kInExplainIo,
            explainIoInProgressAvg),
    derived("pg.ascending_share", "Ascending steps", "%", kPercent, kPgIndex | kInPgIndex,
            stepShare<&pg::IndexFacts::ascendingSteps>),
    derived("pg.descending_share", "Descending steps", "%", kPercent, kPgIndex | kInPgIndex,
            stepShare<&pg::IndexFacts::descendingSteps>),
    derived("pg.random_share", "Random steps", "%", kPercent, kPgIndex | kInPgIndex,
            stepShare<&pg::IndexFacts::randomSteps>),
    derived("distance_mean_ahead", "Mean distance while looking ahead", "blocks", fixed(2),
            kNotInTrace | kInExport, distanceMeanAhead),
    derived("collapsed_blocks", "Blocks in collapses", "blocks", kCount, kNotInTrace | kInExport,
            collapsedBlocks),
};

// The sweep's figures in its CSV's order (docs/sweeps.md): the maps first, then the counts.
constexpr SweepFigure kSweepFigures[] = {
    {"frac_distance_le2", "frac_distance_le2", "fraction of blocks at distance \u2264 2", 1.0, true},
    {"distance_mean", "mean_distance", "mean distance (blocks)", 1.0, true},
    {"collapse_intervals", "collapses", "collapses", 1.0, true},
    {"waits", "waits", "waits", 1.0, true},
    {"ios", "reads", "reads", 1.0, true},
    {"runtime_ns", "runtime_ms", "run time (ms)", 1e-6, true},
    {"blocks", "blocks", "blocks", 1.0, false},
    {"misses", "misses", "misses", 1.0, false},
};
static_assert(std::size(kSweepFigures) == kSweepFigureCount, "kSweepFigureCount counts kSweepFigures");

} // namespace

std::span<const SweepFigure, kSweepFigureCount> sweepFigureTable() {
    return kSweepFigures;
}

std::span<const SummaryField> summaryFieldTable() {
    return kFields;
}

const SummaryField& summaryFieldNamed(std::string_view name) {
    for (const SummaryField& field : kFields)
        if (field.name == name)
            return field;
    throw std::logic_error("no summary figure '" + std::string(name) + "'");
}

double figureNumber(const SummaryField& field, const RunSummary& summary) {
    if (field.derive)
        return field.derive(summary);
    return std::visit(
        [](const auto* value) -> double {
            using T = std::remove_cvref_t<decltype(*value)>;
            if constexpr (std::is_arithmetic_v<T>)
                return static_cast<double>(*value);
            else if constexpr (std::is_same_v<T, std::optional<double>>)
                return value->value_or(kNaN);
            else if constexpr (std::is_same_v<T, std::map<int, std::uint64_t>> ||
                               std::is_same_v<T, std::vector<CollapseInterval>>)
                return static_cast<double>(value->size());
            else
                return kNaN;
        },
        field.view(summary));
}

} // namespace la

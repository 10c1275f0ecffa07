// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_fields.h"

#include <cmath>
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

// A figure kept in the summary; `member` picks it out of one, const or not.
template <class Member>
constexpr SummaryField stored(std::string_view name, FieldStore store, std::string_view label,
                              std::string_view unit, FieldFormat format, std::uint8_t flags, Member) {
    return {name,
            store,
            label,
            unit,
            format,
            flags,
            [](const RunSummary& s) -> FieldView { return &Member{}(s); },
            [](RunSummary& s) -> FieldSlot { return &Member{}(s); },
            nullptr};
}

// A figure computed from the others wherever it is shown.
constexpr SummaryField derived(std::string_view name, std::string_view label, std::string_view unit,
                               FieldFormat format, std::uint8_t flags, double (*value)(const RunSummary&)) {
    return {name, FieldStore::Derived, label, unit, format, flags, nullptr, nullptr, value};
}

// Blocks per read: what the reads brought in over how many there were. A run's reads bring in its
// misses, each in one read, including reads that joined one already in flight and so moved no bytes
// (bytes_read counts only what reached the device). An observed trace has no hits or misses: every
// block it lists was read. EXPLAIN's I/O size (explain_io.h) is the same figure.
double meanReadBlocks(const RunSummary& s) {
    const std::uint64_t read = isObservedRun(s) ? s.blocks : s.misses;
    return s.ios ? static_cast<double>(read) / static_cast<double>(s.ios) : 0.0;
}

// MiB per second of run time; none for a run that took no time.
double readThroughput(const RunSummary& s) {
    const double seconds = static_cast<double>(s.runtimeNs) / 1e9;
    return seconds > 0 ? static_cast<double>(s.bytesRead) / (1024.0 * 1024.0) / seconds : kNaN;
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
    stored(
        "policy", Both, "Policy", "", kText, 0, [](auto& s) -> auto& { return s.policy; }),
    stored(
        "mechanics", Both, "Mechanics", "", kText, 0, [](auto& s) -> auto& { return s.mechanics; }),
    stored(
        "blocks", Both, "Blocks", "blocks", kCount, 0, [](auto& s) -> auto& { return s.blocks; }),
    stored(
        "hits", Both, "Hits", "blocks", kCount, kNotInTrace, [](auto& s) -> auto& { return s.hits; }),
    stored(
        "misses", Both, "Misses", "blocks", kCount, kNotInTrace, [](auto& s) -> auto& { return s.misses; }),
    stored(
        "ios", Both, "I/Os", "", kCount, 0, [](auto& s) -> auto& { return s.ios; }),
    stored(
        "io_size_hist", Both, "Read sizes", "blocks:reads", kPairs, 0,
        [](auto& s) -> auto& { return s.ioSizeHist; }),
    stored(
        "device_reads", Both, "Device reads", "", kCount, 0, [](auto& s) -> auto& { return s.deviceReads; }),
    stored(
        "bytes_read", Both, "Bytes read", "MiB", fixed(1, 1048576.0), 0,
        [](auto& s) -> auto& { return s.bytesRead; }),
    stored(
        "waits", Both, "Waits", "", kCount, 0, [](auto& s) -> auto& { return s.waits; }),
    stored(
        "wait_ns", Both, "Wait time", "ms", fixed(1, 1e6), 0, [](auto& s) -> auto& { return s.waitNs; }),
    stored(
        "runtime_ns", Both, "Run time", "s", fixed(3, 1e9), 0, [](auto& s) -> auto& { return s.runtimeNs; }),
    stored(
        "resets", Both, "Resets", "", kCount, kNotInTrace, [](auto& s) -> auto& { return s.resets; }),
    stored(
        "distance_mean", Both, "Mean distance", "blocks", fixed(2), kNotInTrace,
        [](auto& s) -> auto& { return s.distanceMean; }),
    stored(
        "distance_time_mean", Both, "Time-weighted distance", "blocks", fixed(2), kNotInTrace,
        [](auto& s) -> auto& { return s.distanceTimeMean; }),
    stored(
        "distance_max", Both, "Max distance", "blocks", kWhole, kNotInTrace,
        [](auto& s) -> auto& { return s.distanceMax; }),
    stored(
        "frac_distance_le2", Both, "Blocks at distance ≤ 2", "%", kPercent, kNotInTrace,
        [](auto& s) -> auto& { return s.fracDistanceLe2; }),
    stored(
        "pinned_mean", Both, "Mean pinned", "buffers", fixed(2), kNotInTrace,
        [](auto& s) -> auto& { return s.pinnedMean; }),
    stored(
        "in_flight_mean", Both, "Mean in flight", "reads", fixed(2), kNotInTrace,
        [](auto& s) -> auto& { return s.inFlightMean; }),
    stored(
        "max_pinned", Both, "max_pinned", "buffers", kWhole, kNotInTrace,
        [](auto& s) -> auto& { return s.maxPinned; }),
    stored(
        "io_combine_limit", Both, "io_combine_limit", "blocks", kWhole, kNotInTrace,
        [](auto& s) -> auto& { return s.ioCombineLimit; }),
    stored(
        "collapse_intervals", Both, "Collapses", "", kCount, kNotInTrace,
        [](auto& s) -> auto& { return s.collapseIntervals; }),
    // The counters behind EXPLAIN's averages: a session keeps them, the JSON their averages.
    stored(
        "explain.prefetch_count", Session, "", "", kCount, 0,
        [](auto& s) -> auto& { return s.explainIo.prefetchCount; }),
    stored(
        "explain.distance_sum", Session, "", "", kCount, 0,
        [](auto& s) -> auto& { return s.explainIo.distanceSum; }),
    stored(
        "explain.distance_max", Session, "", "", kWhole, 0,
        [](auto& s) -> auto& { return s.explainIo.distanceMax; }),
    stored(
        "explain.distance_capacity", Session, "", "", kWhole, 0,
        [](auto& s) -> auto& { return s.explainIo.distanceCapacity; }),
    stored(
        "explain.wait_count", Session, "", "", kCount, 0,
        [](auto& s) -> auto& { return s.explainIo.waitCount; }),
    stored(
        "explain.io_count", Session, "", "", kCount, 0, [](auto& s) -> auto& { return s.explainIo.ioCount; }),
    stored(
        "explain.io_blocks", Session, "", "", kCount, 0,
        [](auto& s) -> auto& { return s.explainIo.ioBlocks; }),
    stored(
        "explain.io_in_progress", Session, "", "", kCount, 0,
        [](auto& s) -> auto& { return s.explainIo.ioInProgress; }),
    stored(
        "explain.prefetch_known", Session, "", "", kOwn, 0,
        [](auto& s) -> auto& { return s.explainIo.prefetchKnown; }),
    stored(
        "explain.waits_known", Session, "", "", kOwn, 0,
        [](auto& s) -> auto& { return s.explainIo.waitsKnown; }),
    stored(
        "explain_io", Json, "EXPLAIN (ANALYZE, IO)", "", kOwn, 0,
        [](auto& s) -> auto& { return s.explainIo; }),
    stored(
        "io_method_used", Both, "I/O method", "", kText, 0, [](auto& s) -> auto& { return s.ioMethodUsed; }),
    stored(
        "fallback_reason", Both, "Fallback", "", kText, 0, [](auto& s) -> auto& { return s.fallbackReason; }),
    stored(
        "direct_io", Both, "O_DIRECT", "", kOwn, 0, [](auto& s) -> auto& { return s.directIo; }),
    stored(
        "pages_verified", Both, "Pages verified", "", kCount, 0,
        [](auto& s) -> auto& { return s.pagesVerified; }),
    stored(
        "os_cache_resident_before", Both, "OS page cache resident before", "%", kPercent, 0,
        [](auto& s) -> auto& { return s.osCacheResidentBefore; }),
    stored(
        "os_cache_resident_after", Both, "OS page cache resident after", "%", kPercent, 0,
        [](auto& s) -> auto& { return s.osCacheResidentAfter; }),
    // An index scan's facts: a session keeps them, the JSON them with step shares.
    stored(
        "pg.index_blocks", Session, "", "", kCount, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->indexBlocks; }),
    stored(
        "pg.leaf_pages", Session, "", "", kCount, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->leafPages; }),
    stored(
        "pg.tids", Session, "", "", kCount, kPgIndex, [](auto& s) -> auto& { return s.pgIndex->tids; }),
    stored(
        "pg.posting_lists", Session, "", "", kCount, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->postingLists; }),
    stored(
        "pg.dead_items", Session, "", "", kCount, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->deadItems; }),
    stored(
        "pg.visits", Session, "", "", kCount, kPgIndex, [](auto& s) -> auto& { return s.pgIndex->visits; }),
    stored(
        "pg.distinct_blocks", Session, "", "", kCount, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->distinctBlocks; }),
    stored(
        "pg.ascending_steps", Session, "", "", kCount, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->ascendingSteps; }),
    stored(
        "pg.descending_steps", Session, "", "", kCount, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->descendingSteps; }),
    stored(
        "pg.random_steps", Session, "", "", kCount, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->randomSteps; }),
    stored(
        "pg.checksums", Session, "", "", kOwn, kPgIndex,
        [](auto& s) -> auto& { return s.pgIndex->checksums; }),
    stored(
        "pg_index", Json, "Index scan", "", kOwn, kJsonWhenSet, [](auto& s) -> auto& { return s.pgIndex; }),
    stored(
        "cancelled", Both, "Cancelled", "", kOwn, 0, [](auto& s) -> auto& { return s.cancelled; }),
    stored(
        "error", Both, "Error", "", kText, kJsonWhenSet, [](auto& s) -> auto& { return s.error; }),
    derived("mean_read_blocks", "Mean I/O size", "blocks", fixed(2), 0, meanReadBlocks),
    derived("read_throughput", "Read throughput", "MiB/s", fixed(1), 0, readThroughput),
    derived("collapsed_blocks", "Blocks in collapses", "blocks", kCount, kNotInTrace, collapsedBlocks),
};

} // namespace

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

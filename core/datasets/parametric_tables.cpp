// SPDX-License-Identifier: GPL-3.0-or-later
#include "parametric_tables.h"

#include "splitmix64.h"
#include "stable_order.h"

#include <algorithm>
#include <cmath>

namespace la {

namespace {

constexpr std::uint64_t kFamilyBRows = 10'000'000;
constexpr std::uint32_t kTupleBytes = 72; // (bigint, 32-char md5 text), header included, MAXALIGNed

// PostgreSQL's heap insert rule for tuples of `tupleBytes` (MAXALIGNed) at a fillfactor (§2.1).
std::uint32_t heapRowsPerPage(std::uint32_t tupleBytes, std::uint32_t fillfactor) {
    const int tuple = static_cast<int>(tupleBytes);
    const int save = 8192 * (100 - static_cast<int>(fillfactor)) / 100;
    // §2.1: a page starts with 8192 - 24 (header) - 4 free bytes; each tuple also takes a 4-byte line
    // pointer.
    int freeSpace = 8192 - 24 - 4;
    std::uint32_t rows = 0;
    while (tuple + save <= freeSpace) {
        freeSpace -= tuple + 4;
        ++rows;
    }
    return rows;
}

// Scaling divides the row count but keeps `step` rows per value (docs/datasets.md §2.6).
std::uint64_t scaledValues(const FamilyBSpec& spec, double scale) {
    const std::uint64_t wholeValues = kFamilyBRows / spec.step; // a partial last value has no rows
    const double values = static_cast<double>(wholeValues) * scale;
    return std::max<std::uint64_t>(1, std::llround(values));
}

// The query keeps its position and width relative to the value domain.
struct ValueRange {
    std::uint64_t first; // 0-based value index
    std::uint64_t count;
};
ValueRange scaledRange(const FamilyBSpec& spec, double scale, std::uint64_t values) {
    const std::uint64_t first =
        std::min<std::uint64_t>(values - 1, std::llround(static_cast<double>(spec.firstValue - 1) * scale));
    const std::uint64_t count = std::clamp<std::uint64_t>(
        std::llround(static_cast<double>(spec.valueCount) * scale), 1, values - first);
    return {first, count};
}

// Step 1 of the recipe: value i (0-based here) gets rank r by `i + fuzz * (U - 0.5)`, or by U alone for
// fuzz = -1; one U per value. Returns the value at each rank.
std::vector<std::uint32_t> valueOrder(const FamilyBSpec& spec, std::uint64_t values, SplitMix64& rng) {
    std::vector<double> keys(values);
    const double fuzz = static_cast<double>(spec.fuzz);
    for (std::uint64_t i = 0; i < values; ++i) {
        const double u = rng.uniform();
        keys[i] = spec.fuzz == -1 ? u : static_cast<double>(i + 1) + fuzz * (u - 0.5);
    }
    return stableOrder(keys);
}

} // namespace

std::uint64_t familyBRelationBlocks(const FamilyBSpec& spec, double scale) {
    const std::uint64_t rows = scaledValues(spec, scale) * spec.step;
    const std::uint32_t perPage = heapRowsPerPage(kTupleBytes, spec.fillfactor);
    return (rows + perPage - 1) / perPage;
}

Visits generateFamilyB(const FamilyBSpec& spec, double scale, std::uint64_t seed) {
    const std::uint64_t values = scaledValues(spec, scale);
    const std::uint64_t rows = values * spec.step;
    const std::uint32_t perPage = heapRowsPerPage(kTupleBytes, spec.fillfactor);
    const ValueRange range = scaledRange(spec, scale, values);
    SplitMix64 rng(seed);

    const std::vector<std::uint32_t> valueAtRank = valueOrder(spec, values, rng);

    // Step 2: row (rank r, copy p) sorts by `r*step + p + fuzz2 * (U - 0.5)`, one U per row in (r, p)
    // order; the result is the heap order. With fuzz2 = 0 the order is the identity, and skipping those
    // draws changes nothing because they are the recipe's last.
    std::vector<std::uint32_t> rowAtPosition;
    if (spec.fuzz2 > 0) {
        std::vector<double> keys(rows);
        const double fuzz2 = spec.fuzz2;
        for (std::uint64_t row = 0; row < rows; ++row)
            keys[row] = static_cast<double>(row + spec.step) + fuzz2 * (rng.uniform() - 0.5);
        rowAtPosition = stableOrder(keys);
    }

    // Collect the heap positions of the matching values' rows, grouped by value. Walking the heap in
    // position order leaves each value's rows in ascending TID order, which is the index's tie order.
    std::vector<std::uint32_t> positions(range.count * spec.step);
    std::vector<std::uint32_t> filled(range.count, 0);
    for (std::uint64_t position = 0; position < rows; ++position) {
        const std::uint64_t row = spec.fuzz2 > 0 ? rowAtPosition[position] : position;
        const std::uint64_t value = valueAtRank[row / spec.step];
        if (value < range.first || value >= range.first + range.count)
            continue;
        const std::uint64_t slot = value - range.first;
        positions[slot * spec.step + filled[slot]++] = static_cast<std::uint32_t>(position);
    }

    Visits visits;
    visits.relationBlocks = (rows + perPage - 1) / perPage;
    for (std::uint64_t k = 0; k < range.count; ++k) {
        const std::uint64_t slot = spec.decrease ? range.count - 1 - k : k;
        for (std::uint32_t p = 0; p < spec.step; ++p)
            appendVisit(visits.blocks, positions[slot * spec.step + p] / perPage);
    }
    return visits;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "range_scan_tables.h"

#include "splitmix64.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace la {

namespace {

constexpr std::uint64_t kFamilyARows = 10'000'000;
constexpr std::uint32_t kFamilyARowsPerPage = 18;
// The presets' query: [16384, 26384] of the 100,000-value domain, about 1M rows (docs/datasets.md §3.4).
constexpr double kFamilyAQueryLow = 16384.0;
constexpr double kFamilyAQueryHigh = 26384.0;

std::uint64_t familyARows(double scale) {
    // At least one value unit of 100 rows, so the domain is never empty.
    return std::max<std::uint64_t>(100, std::llround(static_cast<double>(kFamilyARows) * scale));
}

} // namespace

std::uint64_t familyARelationBlocks(double scale) {
    return (familyARows(scale) + kFamilyARowsPerPage - 1) / kFamilyARowsPerPage;
}

// Scaling keeps 100 rows per value unit, so the domain (100,000 values at full size) shrinks with the
// table; the query range and the noise sigma are fractions of the domain and shrink with it. That keeps
// each preset's character (rows per block visited, window width relative to the table) at any scale.
Visits generateFamilyA(const FamilyASpec& spec, double scale, std::uint64_t seed) {
    const std::uint64_t rows = familyARows(scale);
    const double domain = static_cast<double>(rows) / 100.0;
    const double fullDomain = static_cast<double>(kFamilyARows) / 100.0;
    const double low = kFamilyAQueryLow / fullDomain * domain;
    const double high = kFamilyAQueryHigh / fullDomain * domain;
    const double sigma = spec.noisePercent / 100.0 * domain;
    const std::uint64_t modulus = rows / 100;

    // Draw order (§3.3): uniform takes one U per row, the noisy variants one Box-Muller normal (two U)
    // per row, rows i = 1..N in heap order. Only matching rows are kept, so the published 10M-row
    // size costs N draws plus a sort of the ~1M matches rather than a sort of the whole table.
    SplitMix64 rng(seed);
    std::vector<std::pair<double, std::uint32_t>> matches; // (key, heap position)
    matches.reserve(static_cast<std::size_t>(static_cast<double>(rows) * (high - low) / domain * 1.1) + 16);
    for (std::uint64_t i = 1; i <= rows; ++i) {
        double key = 0.0;
        switch (spec.keys) {
        case FamilyASpec::Keys::Uniform:
            key = domain * rng.uniform();
            break;
        case FamilyASpec::Keys::Linear:
            key = static_cast<double>(i) / 100.0;
            break;
        case FamilyASpec::Keys::Cyclic:
            key = static_cast<double>(i % modulus);
            break;
        }
        if (spec.noisePercent > 0.0)
            key += sigma * rng.normal();
        if (key >= low && key <= high)
            matches.emplace_back(key, static_cast<std::uint32_t>(i - 1));
    }
    // Index order is (key, heap TID); positions were appended ascending, so this equals a stable sort.
    std::sort(matches.begin(), matches.end());

    Visits visits;
    visits.relationBlocks = familyARelationBlocks(scale);
    for (const auto& match : matches)
        appendVisit(visits.blocks, match.second / kFamilyARowsPerPage);
    return visits;
}

} // namespace la

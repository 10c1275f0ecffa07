// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_indexes.h"

#include "splitmix64.h"

#include <algorithm>
#include <cmath>

namespace la {

namespace {

constexpr std::uint32_t kOrdersPerDistrict = 3000;
constexpr std::uint32_t kWarehouses = 100;
constexpr std::uint32_t kScannedWarehouses = 9; // ol_w_id < 10
constexpr std::uint32_t kDistricts = 10;
constexpr std::uint32_t kLoaders = 8;
constexpr std::uint32_t kTpccRowsPerPage = 65; // fitted to the published buffer counts (§5.2)

constexpr std::uint64_t kPgbenchRows = 90'000'000;
constexpr std::uint64_t kTuplesPerLeaf = 366;
constexpr std::uint64_t kLeavesPerInternal = 286; // non-leaf pages are filled to 70%, leaves to 90%

// One loader stream: it owns warehouses k+1, k+1+L, ... and inserts them one after another in PK order
// (district, order, line), filling its own current block and taking a new extent from the shared
// relation end whenever its extent is used up.
struct Loader {
    std::uint32_t warehouse = 0; // 1-based; > kWarehouses once done
    std::uint32_t district = 1;
    std::uint32_t order = 1;
    std::uint64_t block = 0;
    std::uint64_t nextBlock = 0;
    std::uint64_t extentEnd = 0;
    std::uint32_t rowsInBlock = kTpccRowsPerPage; // "full", so the first row takes an extent
};

} // namespace

// Scaling shrinks every warehouse (orders per district) and keeps the 100 warehouses and 8 loaders, so
// the interleaving of E-block runs and the scanned share of the table (9 of 100 warehouses) stay.
Visits generateTpcc(std::uint32_t extentBlocks, double scale, std::uint64_t seed) {
    const auto orders =
        static_cast<std::uint32_t>(std::max<long long>(1, std::llround(kOrdersPerDistrict * scale)));
    std::vector<Loader> loaders(kLoaders);
    for (std::uint32_t k = 0; k < kLoaders; ++k)
        loaders[k].warehouse = k + 1;
    // Blocks of each scanned warehouse's rows, in PK order (the insertion order).
    std::vector<std::vector<std::uint32_t>> scanned(kScannedWarehouses);
    std::uint64_t relationEnd = 0;

    // Loaders advance round-robin, one order each; the order's line count (5..15, TPC-C spec) is drawn
    // when it is inserted, so draws follow that round-robin order.
    SplitMix64 rng(seed);
    for (std::uint32_t active = kLoaders; active > 0;) {
        active = 0;
        for (Loader& loader : loaders) {
            if (loader.warehouse > kWarehouses)
                continue;
            ++active;
            const auto lines = static_cast<std::uint32_t>(5 + rng.below(11));
            for (std::uint32_t line = 0; line < lines; ++line) {
                if (loader.rowsInBlock == kTpccRowsPerPage) {
                    if (loader.nextBlock == loader.extentEnd) {
                        loader.nextBlock = relationEnd;
                        relationEnd += extentBlocks;
                        loader.extentEnd = relationEnd;
                    }
                    loader.block = loader.nextBlock++;
                    loader.rowsInBlock = 0;
                }
                ++loader.rowsInBlock;
                if (loader.warehouse <= kScannedWarehouses)
                    appendVisit(scanned[loader.warehouse - 1], static_cast<std::uint32_t>(loader.block));
            }
            if (++loader.order > orders) {
                loader.order = 1;
                if (++loader.district > kDistricts) {
                    loader.district = 1;
                    loader.warehouse += kLoaders;
                }
            }
        }
    }

    Visits visits;
    visits.relationBlocks = relationEnd;
    for (const auto& warehouse : scanned)
        for (const std::uint32_t block : warehouse)
            appendVisit(visits.blocks, block);
    return visits;
}

namespace {

std::uint64_t pgbenchLeaves(double scale) {
    const std::uint64_t rows =
        std::max<std::uint64_t>(1, std::llround(static_cast<double>(kPgbenchRows) * scale));
    return (rows + kTuplesPerLeaf - 1) / kTuplesPerLeaf;
}

} // namespace

// Metapage, the leaves, and one internal page after every run of 286 leaves.
std::uint64_t pgbenchIndexBlocks(double scale) {
    const std::uint64_t leaves = pgbenchLeaves(scale);
    return 1 + leaves + (leaves + kLeavesPerInternal - 1) / kLeavesPerInternal;
}

// CREATE INDEX writes leaves in key order, so leaf k sits at block 1 + k + k/286: one ascending run with
// a one-block hole where each internal page was interleaved. The 2012 test is the backward scan.
Visits generatePgbenchIndex(double scale) {
    const std::uint64_t leaves = pgbenchLeaves(scale);
    Visits visits;
    visits.relationBlocks = pgbenchIndexBlocks(scale);
    visits.blocks.reserve(leaves);
    for (std::uint64_t k = 0; k < leaves; ++k)
        visits.blocks.push_back(static_cast<std::uint32_t>(1 + k + k / kLeavesPerInternal));
    return visits;
}

} // namespace la

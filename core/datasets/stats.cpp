// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset.h"

#include <cstdlib>
#include <vector>

namespace la {

namespace {

constexpr std::uint64_t kCombineLimit = 16; // io_combine_limit: 16 blocks, 128 kB

} // namespace

// docs/datasets.md §2.4. ios16 models read-stream combining with an infinite cache: only a block's first
// visit is a read, and first-time blocks that follow each other ascending (ignoring the re-visits in
// between, which are hits) merge into one read of up to 16 blocks.
DatasetStats computeStats(BlockSource& source) {
    source.rewind();
    DatasetStats stats;
    std::vector<bool> seen(source.relationBlocks(), false);
    std::uint64_t previous = 0;
    std::uint64_t lastRead = 0;
    std::uint64_t readBlocks = 0;
    long double jumps = 0.0L;
    for (SourceItem item = source.next(); item.step != SourceStep::End; item = source.next()) {
        if (item.step != SourceStep::Block)
            continue;
        const std::uint64_t block = item.block;
        const bool first = stats.visits++ == 0;
        if (first || block != previous + 1)
            ++stats.ascRuns;
        if (first || block + 1 != previous)
            ++stats.descRuns;
        if (!first)
            jumps += block > previous ? block - previous : previous - block;
        if (block >= seen.size())
            seen.resize(block + 1, false);
        if (!seen[block]) {
            seen[block] = true;
            if (stats.distinct++ > 0 && block == lastRead + 1 && readBlocks < kCombineLimit) {
                ++readBlocks;
            } else {
                ++stats.ios16;
                readBlocks = 1;
            }
            lastRead = block;
        }
        previous = block;
    }
    if (stats.visits > 1)
        stats.meanJump = static_cast<double>(jumps / static_cast<long double>(stats.visits - 1));
    source.rewind();
    return stats;
}

} // namespace la

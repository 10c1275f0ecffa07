// SPDX-License-Identifier: GPL-3.0-or-later
#include "observed_trace.h"

#include "checked_math.h"
#include "memory_budget.h"

#include <algorithm>

namespace la {

std::uint64_t ObservedTrace::relationBlocks() const {
    std::uint64_t end = 0;
    for (const ObservedRead& read : reads)
        end = std::max<std::uint64_t>(end, std::uint64_t{read.block} + read.nblocks);
    return end;
}

std::vector<std::uint32_t> ObservedTrace::impliedBlocks() const {
    std::uint64_t total = 0; // reads are counted before any block is expanded
    for (const ObservedRead& read : reads)
        total += read.nblocks;
    std::uint64_t bytes = 0;
    if (!checkedMul<std::uint64_t>(total, sizeof(std::uint32_t), bytes))
        bytes = UINT64_MAX;
    requireMemory(bytes, "the block sequence of the imported trace (" + std::to_string(total) + " blocks)",
                  "import a shorter trace or a smaller relation");
    std::vector<std::uint32_t> blocks;
    blocks.reserve(total);
    for (const ObservedRead& read : reads)
        for (std::uint32_t i = 0; i < read.nblocks; ++i)
            blocks.push_back(read.block + i);
    return blocks;
}

} // namespace la

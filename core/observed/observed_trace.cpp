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

std::string ObservedTrace::waitsScope() const {
    if (format == TraceFormat::LookaheadCsv)
        return {};
    if (!waitsKnown())
        return "not in the trace: " + std::to_string(processes.size()) +
               " processes read the relation, and which one ran the scan is not known";
    // --trace-backend names a PostgreSQL backend; the only process that read the file may be any
    // program (cat, dd, a scan of ours).
    const bool named = backendBasis == "--trace-backend";
    const std::string who = named ? "the backend" : "the reader";
    if (!backend)
        return who + "'s own reads";
    const bool backendRead = std::find(processes.begin(), processes.end(), *backend) != processes.end();
    const std::size_t others = processes.size() - (backendRead ? 1 : 0);
    std::string scope = who + "'s own reads (pid " + std::to_string(*backend) + ", " + backendBasis + ")";
    if (others > 0)
        scope += "; its waits for the reads of " + std::to_string(others) + " other process(es)" +
                 (named ? ", I/O workers," : "") + " are not in a syscall trace";
    return scope;
}

} // namespace la

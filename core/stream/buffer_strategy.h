// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mechanics.h"
#include "stream_config.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace la {

// Which buffer access strategy a run's stream reads through (--strategy): as PostgreSQL decides,
// none (the main pool), or BULKREAD's ring (docs/read-stream-model.md §14).
enum class StrategyChoice : std::uint8_t { Auto, None, BulkRead };

const char* strategyChoiceName(StrategyChoice choice);
std::optional<StrategyChoice> strategyChoiceNamed(std::string_view name);

// The strategy a scan reads through: BULKREAD's ring of `ringBuffers` buffers, or the main pool.
struct BufferStrategy {
    int ringBuffers = 0; // 0: no strategy
    bool bulkRead() const { return ringBuffers > 0; }
    const char* name() const { return bulkRead() ? "BULKREAD" : "none"; }
};

// The ring GetAccessStrategy(BAS_BULKREAD) gives, in buffers, for the version's rule, the GUCs
// effective_io_concurrency and io_combine_limit and shared_buffers (GetAccessStrategyWithSize caps
// every ring at an eighth of it); 0 for a pool too small to hold one.
int bulkReadRingBuffers(RingRule rule, const StreamConfig& config);

// The strategy of a scan of a `relationBlocks`-block relation: with Auto, heapam's initscan() rule,
// a sequential scan (READ_STREAM_SEQUENTIAL) of a relation larger than a quarter of shared_buffers
// reads through BULKREAD; every other stream (index scans, bitmap heap scans) uses the main pool.
BufferStrategy chooseStrategy(StrategyChoice choice, RingRule rule, const StreamConfig& config,
                              std::uint64_t relationBlocks);

} // namespace la

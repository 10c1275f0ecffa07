// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "event.h"
#include "visits.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace la {

// The streams of one backend and the order its executor takes their buffers in (docs/plan-runs.md):
// a turn takes `buffers` buffers from one stream, going through the stream's resets on the way.
struct StreamTurn {
    std::uint8_t stream = 0;
    std::uint64_t buffers = 0;
};

// The visits of several streams in one block space (each relation of the plan at its own blocks), and
// their turns. As a BlockSource it hands out every stream's blocks in the turns' order, without the
// resets, which are each stream's own: what checks, statistics and the cache's sizing read. A plan
// run takes each stream's own source and the turns.
class PlanSource final : public BlockSource {
public:
    // Each stream's visits share `relationBlocks`; the turns take every block of every stream.
    PlanSource(std::vector<Visits> streams, std::vector<StreamTurn> turns, std::uint64_t relationBlocks);

    SourceItem next() override;
    std::uint64_t length() const override { return m_length; }
    std::uint64_t relationBlocks() const override { return m_relationBlocks; }
    void rewind() override;

    std::size_t streams() const { return m_streams.size(); }
    const std::vector<StreamTurn>& turns() const { return m_turns; }
    // Stream `i`'s own visits, its resets included, from the start.
    std::unique_ptr<BlockSource> streamSource(std::size_t i) const;
    std::uint64_t streamLength(std::size_t i) const { return m_streams[i].blocks.size(); }

private:
    std::vector<Visits> m_streams;
    std::vector<StreamTurn> m_turns;
    std::uint64_t m_relationBlocks;
    std::uint64_t m_length = 0;
    // Where next() is: the turn, the buffers of it taken, and each stream's next block.
    std::size_t m_turn = 0;
    std::uint64_t m_takenInTurn = 0;
    std::vector<std::size_t> m_next;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "plan_visits.h"

#include "vector_source.h"

#include <utility>

namespace la {

PlanSource::PlanSource(std::vector<Visits> streams, std::vector<StreamTurn> turns,
                       std::uint64_t relationBlocks)
    : m_streams(std::move(streams)), m_turns(std::move(turns)), m_relationBlocks(relationBlocks),
      m_next(m_streams.size(), 0) {
    for (const Visits& visits : m_streams)
        m_length += visits.blocks.size();
}

SourceItem PlanSource::next() {
    while (m_turn < m_turns.size() && m_takenInTurn == m_turns[m_turn].buffers) {
        ++m_turn;
        m_takenInTurn = 0;
    }
    if (m_turn == m_turns.size())
        return {SourceStep::End, 0};
    const std::uint8_t stream = m_turns[m_turn].stream;
    ++m_takenInTurn;
    return {SourceStep::Block, m_streams[stream].blocks[m_next[stream]++]};
}

void PlanSource::rewind() {
    m_turn = 0;
    m_takenInTurn = 0;
    m_next.assign(m_streams.size(), 0);
}

std::unique_ptr<BlockSource> PlanSource::streamSource(std::size_t i) const {
    const Visits& visits = m_streams[i];
    return std::make_unique<VectorSource>(visits.blocks, m_relationBlocks, visits.resetsBefore);
}

} // namespace la

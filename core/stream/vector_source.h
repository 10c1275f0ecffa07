// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace la {

// A block sequence held in memory (user block lists, tests, presets that must sort). `resetsBefore`
// holds, in ascending order, the place of each reset: a reset before blocks[i] is i, one after the
// last block is blocks.size(); a place held twice is two resets in a row (a nested loop's outer row
// that found no inner row).
class VectorSource final : public BlockSource {
public:
    explicit VectorSource(std::vector<std::uint32_t> blocks, std::uint64_t relationBlocks = 0,
                          std::vector<std::uint64_t> resetsBefore = {})
        : m_blocks(std::move(blocks)), m_relationBlocks(relationBlocks), m_resets(std::move(resetsBefore)) {
        if (m_relationBlocks == 0 && !m_blocks.empty())
            m_relationBlocks = std::uint64_t{*std::max_element(m_blocks.begin(), m_blocks.end())} + 1;
    }

    SourceItem next() override {
        if (m_nextReset < m_resets.size() && m_resets[m_nextReset] == m_next) {
            ++m_nextReset;
            return {SourceStep::Reset, 0};
        }
        if (m_next == m_blocks.size())
            return {SourceStep::End, 0};
        return {SourceStep::Block, m_blocks[m_next++]};
    }
    std::uint64_t length() const override { return m_blocks.size(); }
    std::uint64_t relationBlocks() const override { return m_relationBlocks; }
    void rewind() override {
        m_next = 0;
        m_nextReset = 0;
    }

private:
    std::vector<std::uint32_t> m_blocks;
    std::uint64_t m_relationBlocks;
    std::vector<std::uint64_t> m_resets;
    std::size_t m_next = 0;
    std::size_t m_nextReset = 0;
};

} // namespace la

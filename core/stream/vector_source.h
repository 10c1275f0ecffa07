// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace la {

// A block sequence held in memory (user block lists, tests, presets that must sort).
class VectorSource final : public BlockSource {
public:
    explicit VectorSource(std::vector<std::uint32_t> blocks, std::uint64_t relationBlocks = 0)
        : m_blocks(std::move(blocks)), m_relationBlocks(relationBlocks) {
        if (m_relationBlocks == 0 && !m_blocks.empty())
            m_relationBlocks = std::uint64_t{*std::max_element(m_blocks.begin(), m_blocks.end())} + 1;
    }

    SourceItem next() override {
        if (m_next == m_blocks.size())
            return {SourceStep::End, 0};
        return {SourceStep::Block, m_blocks[m_next++]};
    }
    std::uint64_t length() const override { return m_blocks.size(); }
    std::uint64_t relationBlocks() const override { return m_relationBlocks; }
    void rewind() override { m_next = 0; }

private:
    std::vector<std::uint32_t> m_blocks;
    std::uint64_t m_relationBlocks;
    std::size_t m_next = 0;
};

} // namespace la

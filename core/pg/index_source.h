// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "index_scan.h"

#include <cstdint>
#include <memory>

namespace la::pg {

struct IndexStreamOptions {
    bool resetAtBatches = false;        // --index-batches reset
    std::uint64_t streamStartAfter = 0; // --stream-start-after N
};

// Plays an index scan's heap visits to the stream (docs/pg-relations.md §6). With resetAtBatches the
// stream is reset at every leaf-page boundary, as the "simple" prefetch patch did. The first
// streamStartAfter visits come before the stream exists: each is read on its own (a reset follows
// it, so nothing is looked ahead), and the stream proper starts at the next one.
class IndexSource final : public BlockSource {
public:
    IndexSource(std::shared_ptr<const IndexVisits> visits, IndexStreamOptions options,
                std::uint64_t relationBlocks)
        : m_visits(std::move(visits)), m_options(options), m_relationBlocks(relationBlocks) {}

    SourceItem next() override {
        const std::vector<std::uint32_t>& blocks = m_visits->blocks;
        if (m_next == blocks.size())
            return {SourceStep::End, 0};
        if (m_next > 0 && !m_resetDone && resetBefore(m_next)) {
            m_resetDone = true;
            return {SourceStep::Reset, 0};
        }
        m_resetDone = false;
        if (m_batch < m_visits->batchStarts.size() && m_visits->batchStarts[m_batch] == m_next)
            ++m_batch;
        return {SourceStep::Block, blocks[m_next++]};
    }
    std::uint64_t length() const override { return m_visits->blocks.size(); }
    std::uint64_t relationBlocks() const override { return m_relationBlocks; }
    void rewind() override {
        m_next = 0;
        m_batch = 0;
        m_resetDone = false;
    }

private:
    bool resetBefore(std::uint64_t i) const {
        if (i <= m_options.streamStartAfter)
            return true; // visit i-1 was read before the stream started
        return m_options.resetAtBatches && m_batch < m_visits->batchStarts.size() &&
               m_visits->batchStarts[m_batch] == i;
    }

    std::shared_ptr<const IndexVisits> m_visits;
    IndexStreamOptions m_options;
    std::uint64_t m_relationBlocks;
    std::uint64_t m_next = 0;
    std::size_t m_batch = 0; // the next batch start not yet passed
    bool m_resetDone = false;
};

} // namespace la::pg

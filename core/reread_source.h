// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "buffer_pool.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace la {

// The visits of a scan whose trace shows blocks read again: at each such visit the block is dropped
// from shared buffers just before the stream looks it up, so that it misses there as it did on the
// server (core/traced_cache.h). `rereadVisits` counts Block items, ascending.
class RereadSource final : public BlockSource {
public:
    RereadSource(std::unique_ptr<BlockSource> inner, BufferPool& pool,
                 const std::vector<std::uint64_t>& rereadVisits)
        : m_inner(std::move(inner)), m_pool(pool), m_rereads(rereadVisits) {}

    SourceItem next() override {
        const SourceItem item = m_inner->next();
        if (item.step != SourceStep::Block)
            return item;
        if (m_nextReread < m_rereads.size() && m_rereads[m_nextReread] == m_visit) {
            ++m_nextReread;
            // Still pinned by an earlier visit in the look-ahead: the model hits where the server read.
            if (!m_pool.evict(item.block))
                ++m_notEvicted;
        }
        ++m_visit;
        return item;
    }
    std::uint64_t length() const override { return m_inner->length(); }
    std::uint64_t relationBlocks() const override { return m_inner->relationBlocks(); }
    void rewind() override {
        m_inner->rewind();
        m_visit = 0;
        m_nextReread = 0;
    }
    // Re-reads the model could not force because the block was still pinned or being read.
    std::uint64_t notEvicted() const { return m_notEvicted; }

private:
    std::unique_ptr<BlockSource> m_inner;
    BufferPool& m_pool;
    const std::vector<std::uint64_t>& m_rereads;
    std::uint64_t m_visit = 0;
    std::size_t m_nextReread = 0;
    std::uint64_t m_notEvicted = 0;
};

} // namespace la

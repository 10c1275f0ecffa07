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
// server (core/observed/traced_cache.h). `rereadVisits` counts Block items, ascending.
class RereadSource final : public WrappedSource {
public:
    RereadSource(std::unique_ptr<BlockSource> inner, BufferPool& pool,
                 const std::vector<std::uint64_t>& rereadVisits)
        : WrappedSource(std::move(inner)), m_pool(pool), m_rereads(rereadVisits) {}

    SourceItem next() override {
        const SourceItem item = take();
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
    // Re-reads the model could not force because the block was still pinned or being read.
    std::uint64_t notEvicted() const { return m_notEvicted; }

private:
    void restart() override {
        m_visit = 0;
        m_nextReread = 0;
    }

    BufferPool& m_pool;
    const std::vector<std::uint64_t>& m_rereads;
    std::uint64_t m_visit = 0;
    std::size_t m_nextReread = 0;
    std::uint64_t m_notEvicted = 0;
};

} // namespace la

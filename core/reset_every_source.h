// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"

#include <memory>

namespace la {

// Ends the stream every `every` blocks so the consumer resets it, as the "simple" index-prefetch
// patch did at every leaf page (docs/read-stream-model.md §8.3).
class ResetEverySource final : public BlockSource {
public:
    ResetEverySource(std::unique_ptr<BlockSource> inner, std::uint64_t every)
        : m_inner(std::move(inner)), m_every(every) {}

    SourceItem next() override {
        SourceItem item = m_hasPeeked ? m_peeked : m_inner->next();
        m_hasPeeked = false;
        if (item.step == SourceStep::Block && m_sinceReset == m_every) {
            // No reset after the last block: the scan simply ends there.
            m_peeked = item;
            m_hasPeeked = true;
            m_sinceReset = 0;
            return {SourceStep::Reset, 0};
        }
        if (item.step == SourceStep::Block)
            ++m_sinceReset;
        return item;
    }
    std::uint64_t length() const override { return m_inner->length(); }
    std::uint64_t relationBlocks() const override { return m_inner->relationBlocks(); }
    void rewind() override {
        m_inner->rewind();
        m_sinceReset = 0;
        m_hasPeeked = false;
    }

private:
    std::unique_ptr<BlockSource> m_inner;
    std::uint64_t m_every;
    std::uint64_t m_sinceReset = 0;
    SourceItem m_peeked;
    bool m_hasPeeked = false;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"

#include <memory>

namespace la {

// Ends the stream every `every` blocks so the consumer resets it, as the "simple" index-prefetch
// patch did at every leaf page (docs/read-stream-model.md §8.3).
class ResetEverySource final : public WrappedSource {
public:
    ResetEverySource(std::unique_ptr<BlockSource> inner, std::uint64_t every)
        : WrappedSource(std::move(inner)), m_every(every) {}

    SourceItem next() override {
        const SourceItem item = take();
        if (item.step == SourceStep::Block && m_sinceReset == m_every) {
            // No reset after the last block: the scan simply ends there.
            holdBack(item);
            m_sinceReset = 0;
            return {SourceStep::Reset, 0};
        }
        if (item.step == SourceStep::Block)
            ++m_sinceReset;
        return item;
    }

private:
    void restart() override { m_sinceReset = 0; }

    std::uint64_t m_every;
    std::uint64_t m_sinceReset = 0;
};

} // namespace la

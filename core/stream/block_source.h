// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

namespace la {

enum class SourceStep : std::uint8_t { Block, Reset, End };

struct SourceItem {
    SourceStep step = SourceStep::End;
    std::uint32_t block = 0;
};

// The stream's callback: block numbers in the order the consumer wants them, produced lazily so
// that a 100 M-block scan holds no more than the generator needs. A Reset item asks the consumer to
// drain the stream and call reset before continuing (index-scan style rescans).
class BlockSource {
public:
    virtual ~BlockSource() = default;
    virtual SourceItem next() = 0;
    // Number of Block items a full pass yields (for progress and summaries).
    virtual std::uint64_t length() const = 0;
    // Size of the relation the blocks live in: every block is < relationBlocks().
    virtual std::uint64_t relationBlocks() const = 0;
    // Start again from the first item (A/B comparisons replay the same sequence).
    virtual void rewind() = 0;
};

// A source that hands on another's blocks with something added or changed on the way (resets, a
// forced re-read): the same length and relation, and a rewind that starts both over.
class WrappedSource : public BlockSource {
public:
    explicit WrappedSource(std::unique_ptr<BlockSource> inner) : m_inner(std::move(inner)) {}

    std::uint64_t length() const final { return m_inner->length(); }
    std::uint64_t relationBlocks() const final { return m_inner->relationBlocks(); }
    void rewind() final {
        m_inner->rewind();
        m_heldBack.reset();
        restart();
    }

protected:
    // Back to the state before the first item.
    virtual void restart() = 0;
    // The next item: the one held back, else the inner source's.
    SourceItem take() {
        if (!m_heldBack)
            return m_inner->next();
        const SourceItem item = *m_heldBack;
        m_heldBack.reset();
        return item;
    }
    // Hands `item` out again at the next take(), after an item put before it.
    void holdBack(SourceItem item) { m_heldBack = item; }

private:
    std::unique_ptr<BlockSource> m_inner;
    std::optional<SourceItem> m_heldBack;
};

} // namespace la

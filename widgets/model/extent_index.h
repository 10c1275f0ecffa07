// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace la {

// A block range [lo, hi); empty while lo >= hi.
struct Extent {
    std::uint32_t lo = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t hi = 0;

    bool empty() const { return lo >= hi; }
    void add(std::uint32_t itemLo, std::uint32_t itemHi) {
        lo = std::min(lo, itemLo);
        hi = std::max(hi, itemHi);
    }
    void add(const Extent& other) {
        if (!other.empty())
            add(other.lo, other.hi);
    }
};

// The block extent of an append-only column, per chunk of items, so the blocks under any visible
// span are found without scanning it (the y axes refit on every zoom).
class ExtentIndex {
public:
    static constexpr std::size_t kChunk = 4096;

    // Item number size() covers blocks [lo, hi).
    void add(std::uint32_t lo, std::uint32_t hi) {
        if (m_items % kChunk == 0)
            m_chunks.emplace_back();
        m_chunks.back().add(lo, hi);
        ++m_items;
    }

    // Extent of items [first, end); `item(i)` returns one item's Extent (used for partial chunks).
    template <typename ItemExtent> Extent query(std::size_t first, std::size_t end, ItemExtent item) const {
        Extent result;
        end = std::min(end, m_items);
        std::size_t i = first;
        for (; i < end && i % kChunk != 0; ++i)
            result.add(item(i));
        for (; i + kChunk <= end; i += kChunk)
            result.add(m_chunks[i / kChunk]);
        for (; i < end; ++i)
            result.add(item(i));
        return result;
    }

private:
    std::vector<Extent> m_chunks;
    std::size_t m_items = 0;
};

} // namespace la

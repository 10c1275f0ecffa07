// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_size_scatter.h"

#include "run_trace.h"

#include <bit>

namespace la {

bool IoSizeScatter::update(const RunTrace& trace, const Key& key, std::uint64_t budget) {
    const IndexRange inX = key.x.valid() ? readsInX(trace, key.mode, key.x.lo, key.x.hi) : IndexRange{};
    beginUpdate(key, inX.first, [](ReadSizeBits& into, const ReadSizeBits& sizes) {
        for (std::size_t word = 0; word < into.size(); ++word)
            into[word] |= sizes[word];
    });
    if (!key.x.valid())
        return true;
    for (std::uint64_t work = 0; m_cursor < inX.end && work < budget; ++work) {
        const std::size_t r = m_cursor++;
        const int column = key.x.cellOf(xOfRead(trace, key.mode, r));
        if (column < 0 || column >= key.x.cells)
            continue;
        const unsigned size = trace.read(r).nblocks;
        std::uint64_t& word = m_columns[static_cast<std::size_t>(column)][size / 64];
        const std::uint64_t bit = std::uint64_t(1) << (size % 64);
        if (!(word & bit)) {
            word |= bit;
            markChanged();
        }
    }
    return m_cursor >= inX.end;
}

std::vector<IoSizeScatter::Point> IoSizeScatter::points() const {
    std::vector<Point> result;
    for (std::size_t c = 0; c < m_columns.size(); ++c) {
        for (std::size_t word = 0; word < m_columns[c].size(); ++word) {
            for (std::uint64_t bits = m_columns[c][word]; bits != 0; bits &= bits - 1)
                result.push_back({key().x.cellCentre(static_cast<int>(c)),
                                  static_cast<int>(word * 64) + std::countr_zero(bits)});
        }
    }
    return result;
}

} // namespace la

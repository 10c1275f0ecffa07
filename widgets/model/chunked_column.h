// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace la {

// An append-only column stored in fixed chunks of 64 k items. Unlike std::vector it never copies what
// it holds to grow, so appending to a column of millions stays a few microseconds on the GUI thread
// (a vector's doubling would stall it for tens of milliseconds), and nothing is reserved up front.
template <typename T> class ChunkedColumn {
public:
    static constexpr std::size_t kChunkBits = 16;
    static constexpr std::size_t kChunk = std::size_t(1) << kChunkBits;

    void push_back(T value) {
        if (m_size % kChunk == 0)
            m_chunks.emplace_back(new T[kChunk]); // default-initialised: no pages touched yet
        m_chunks.back()[m_size % kChunk] = value;
        ++m_size;
    }
    T operator[](std::size_t index) const { return m_chunks[index >> kChunkBits][index & (kChunk - 1)]; }
    std::size_t size() const { return m_size; }

private:
    std::vector<std::unique_ptr<T[]>> m_chunks;
    std::size_t m_size = 0;
};

} // namespace la

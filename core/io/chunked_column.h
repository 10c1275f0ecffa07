// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "spill_file.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace la {

// An append-only column stored in fixed chunks of 64 k items. Unlike std::vector it never copies what
// it holds to grow, so appending to a column of millions stays a few microseconds on the thread feeding it
// (a vector's doubling would stall it for tens of milliseconds), and nothing is reserved up front.
//
// Given a SpillFile, each chunk goes to it once full and only a few recently read chunks stay in
// memory, so a column of any length costs a few MB. Reading a spilled item loads its chunk (a
// 64 k-item pread from the page cache); a chunk's first item stays in memory, so a binary search over
// chunk starts loads nothing. Not safe for concurrent readers: one thread at a time.
template <typename T> class ChunkedColumn {
public:
    static constexpr std::size_t kChunkBits = 16;
    static constexpr std::size_t kChunk = std::size_t(1) << kChunkBits;

    // Full chunks go to `file` from now on; nullptr keeps them all in memory. `file` outlives this.
    void spillTo(SpillFile* file) { m_file = file; }

    void push_back(T value) {
        const std::size_t slot = m_size & (kChunk - 1);
        if (slot == 0) // default-initialised: no pages touched yet
            m_chunks.push_back(
                {m_spare ? std::move(m_spare) : std::unique_ptr<T[]>(new T[kChunk]), -1, value});
        Chunk& chunk = m_chunks.back();
        chunk.data[slot] = value;
        ++m_size;
        if (slot == kChunk - 1 && m_file)
            spill(chunk);
    }
    T operator[](std::size_t index) const {
        const std::size_t chunk = index >> kChunkBits;
        if (chunk != m_lastChunk) [[unlikely]] {
            if (!m_chunks[chunk].data && (index & (kChunk - 1)) == 0)
                return m_chunks[chunk].first;
            m_lastData = m_chunks[chunk].data ? m_chunks[chunk].data.get() : loaded(chunk);
            m_lastChunk = chunk;
        }
        return m_lastData[index & (kChunk - 1)];
    }
    std::size_t size() const { return m_size; }

private:
    struct Chunk {
        std::unique_ptr<T[]> data; // null once spilled
        std::int64_t offset = -1;  // in the spill file
        T first{};
    };
    struct CachedChunk {
        std::size_t chunk = SIZE_MAX;
        std::unique_ptr<T[]> data;
        std::uint64_t lastUse = 0;
    };
    // A sequential walk loads each chunk once; a few slots let two walks (or a walk and a search)
    // interleave without reloading.
    static constexpr std::size_t kCachedChunks = 4;

    void spill(Chunk& chunk) {
        const std::int64_t offset = m_file->append(chunk.data.get(), kChunk * sizeof(T));
        if (offset < 0)
            return; // the file says why; the chunk stays in memory
        chunk.offset = offset;
        if (m_lastData == chunk.data.get())
            m_lastChunk = SIZE_MAX;
        m_spare = std::move(chunk.data);
    }

    const T* loaded(std::size_t chunk) const {
        ++m_uses;
        CachedChunk* victim = &m_cache[0];
        for (CachedChunk& cached : m_cache) {
            if (cached.chunk == chunk) {
                cached.lastUse = m_uses;
                return cached.data.get();
            }
            if (cached.lastUse < victim->lastUse)
                victim = &cached;
        }
        if (!victim->data)
            victim->data.reset(new T[kChunk]);
        if (!m_file->read(m_chunks[chunk].offset, victim->data.get(), kChunk * sizeof(T)))
            std::fill_n(victim->data.get(), kChunk, T{});
        victim->chunk = chunk;
        victim->lastUse = m_uses;
        return victim->data.get();
    }

    std::vector<Chunk> m_chunks;
    std::unique_ptr<T[]> m_spare; // the last spilled chunk's memory, for the next one: no page faults
    std::size_t m_size = 0;
    SpillFile* m_file = nullptr;
    mutable std::array<CachedChunk, kCachedChunks> m_cache;
    mutable std::uint64_t m_uses = 0;
    // The chunk read last, in memory or cached: a walk in order checks one number per item.
    mutable std::size_t m_lastChunk = SIZE_MAX;
    mutable const T* m_lastData = nullptr;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace la {

enum class PinResult : std::uint8_t {
    Hit,        // valid in shared buffers: no I/O
    InProgress, // allocated, its read not finished yet (another read of this stream owns it)
    Allocated,  // newly allocated: needs I/O
};

// Simulated shared buffers. Like PostgreSQL, hit or miss is decided when the stream pins a block
// during look-ahead, blocks read by the stream become resident, and a full pool evicts with a
// clock sweep over usage counts (pinned buffers are never evicted).
class BufferPool {
public:
    // `relationBlocks` bounds the block numbers; when the pool can hold the whole relation it maps
    // blocks to frames directly and never evicts (the common case for patterns, and much faster).
    BufferPool(std::uint64_t capacity, std::uint64_t relationBlocks);
    // The memory such a pool allocates, so that callers can check it first.
    static std::uint64_t bytesFor(std::uint64_t capacity, std::uint64_t relationBlocks);

    std::uint64_t capacity() const { return m_capacity; }
    std::uint64_t resident() const { return m_resident; }

    // Makes `block` valid without I/O (prewarm). Returns false if it was already resident.
    bool prewarm(std::uint32_t block);

    struct Pinned {
        PinResult result;
        std::uint32_t frame; // handle for unpin() and markValid(), valid while pinned
    };
    // Pins `block`, allocating (and maybe evicting) on a miss.
    Pinned pin(std::uint32_t block);
    void unpin(std::uint32_t frame) { --m_frames[frame].pins; }
    void markValid(std::uint32_t frame) { m_frames[frame].state = Valid; }

private:
    enum : std::uint8_t { Empty = 0, Reading = 1, Valid = 2 };
    struct Frame {
        std::uint32_t block = 0;
        std::uint32_t pins = 0;
        std::uint8_t state = Empty;
        std::uint8_t usage = 0;
    };

    std::int64_t find(std::uint32_t block) const;
    std::uint32_t allocateFrame(std::uint32_t block);
    void tableInsert(std::uint32_t block, std::uint32_t frame);
    void tableErase(std::uint32_t block);

    std::uint64_t m_capacity;
    bool m_direct;
    std::uint64_t m_resident = 0;
    std::vector<Frame> m_frames;
    std::uint32_t m_nextUnused = 0;
    std::uint32_t m_clockHand = 0;
    // Open-addressing block -> frame+1 map (0 = empty slot), used when not direct.
    std::vector<std::uint64_t> m_table;
    std::uint64_t m_tableMask = 0;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace la {

// Buffers for reads in flight, carved from one 4096-aligned allocation made before the run (O_DIRECT
// needs the alignment, and the hot path must not allocate). Reads complete and are released in the
// order they were started, so the arena is a ring: allocate at the tail, free from the head.
class BlockArena {
public:
    // Room for `blocks` 8 kB blocks in flight at once, each read contiguous, at most
    // `maxReadBlocks` per read (the ring may waste up to one read's worth at its end).
    BlockArena(std::uint64_t blocks, std::uint32_t maxReadBlocks);

    // Offset (in blocks) of `n` contiguous free blocks, or -1 if the ring is full.
    std::int64_t allocate(std::uint32_t n);
    // Frees the oldest allocation; `nextOldest` is the offset of the one after it (-1 if none).
    void releaseOldest(std::int64_t nextOldest);

    // The buffer at `offset`. The allocation has one spare block past the end, so a buffer
    // deliberately shifted by a few bytes (LOOKAHEAD_DISABLE_O_DIRECT=read) stays inside it.
    std::byte* at(std::int64_t offset) const;

private:
    struct Free {
        void operator()(std::byte* p) const;
    };
    std::unique_ptr<std::byte, Free> m_memory;
    std::uint64_t m_capacity; // blocks
    std::uint64_t m_head = 0; // oldest live allocation
    std::uint64_t m_tail = 0; // next free block
    std::uint64_t m_live = 0;
};

} // namespace la

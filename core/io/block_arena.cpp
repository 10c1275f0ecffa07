// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_arena.h"

#include "block_size.h"

#include <cstdlib>
#include <new>

namespace la {

namespace {
constexpr std::size_t kAlignment = 4096;
}

void BlockArena::Free::operator()(std::byte* p) const {
    std::free(p);
}

BlockArena::BlockArena(std::uint64_t blocks, std::uint32_t maxReadBlocks)
    : m_capacity(blocks + maxReadBlocks + 1) {
    void* memory = nullptr;
    if (::posix_memalign(&memory, kAlignment, (m_capacity + 1) * kBlockSize) != 0)
        throw std::bad_alloc();
    m_memory.reset(static_cast<std::byte*>(memory));
}

std::int64_t BlockArena::allocate(std::uint32_t n) {
    if (m_live == 0)
        m_head = m_tail = 0;
    std::uint64_t offset = 0;
    if (m_tail >= m_head) {
        // Free space is [tail, capacity) and [0, head); the tail must never catch up with the head.
        if (m_tail + n <= m_capacity)
            offset = m_tail;
        else if (n < m_head)
            offset = 0;
        else
            return -1;
    } else if (m_tail + n < m_head) {
        offset = m_tail;
    } else {
        return -1;
    }
    m_tail = offset + n;
    ++m_live;
    return static_cast<std::int64_t>(offset);
}

void BlockArena::releaseOldest(std::int64_t nextOldest) {
    --m_live;
    if (nextOldest >= 0)
        m_head = static_cast<std::uint64_t>(nextOldest);
}

std::byte* BlockArena::at(std::int64_t offset) const {
    return m_memory.get() + static_cast<std::uint64_t>(offset) * kBlockSize;
}

} // namespace la

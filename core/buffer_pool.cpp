// SPDX-License-Identifier: GPL-3.0-or-later
#include "buffer_pool.h"

#include "input_error.h"

#include <bit>
#include <string>

namespace la {

namespace {
constexpr std::uint8_t kMaxUsage = 5; // PostgreSQL's BM_MAX_USAGE_COUNT

std::uint64_t bitmapWords(std::uint64_t bits) {
    return (bits + 63) / 64;
}
} // namespace

BufferPool::BufferPool(std::uint64_t capacity, std::uint64_t relationBlocks, Layout layout)
    : m_capacity(capacity), m_compact(layout == Layout::Auto && capacity >= relationBlocks) {
    if (capacity == 0)
        throw InputError("shared buffers must hold at least one block");
    if (m_compact) {
        m_capacity = relationBlocks;
        m_allocated.assign(bitmapWords(relationBlocks), 0);
        m_valid.assign(bitmapWords(relationBlocks), 0);
        return;
    }
    m_frames.resize(capacity);
    const std::uint64_t slots = std::bit_ceil(capacity * 2);
    m_table.assign(slots, 0);
    m_tableMask = slots - 1;
}

std::uint64_t BufferPool::bytesFor(std::uint64_t capacity, std::uint64_t relationBlocks) {
    if (capacity >= relationBlocks)
        return 2 * bitmapWords(relationBlocks) * sizeof(std::uint64_t);
    return capacity * sizeof(Frame) + std::bit_ceil(capacity * 2) * sizeof(std::uint64_t);
}

std::int64_t BufferPool::find(std::uint32_t block) const {
    for (std::uint64_t slot = slotOf(block, m_tableMask);; slot = (slot + 1) & m_tableMask) {
        const std::uint64_t entry = m_table[slot];
        if (entry == 0)
            return -1;
        if (static_cast<std::uint32_t>(entry >> 32) == block)
            return static_cast<std::int64_t>((entry & 0xFFFFFFFFu) - 1);
    }
}

void BufferPool::tableInsert(std::uint32_t block, std::uint32_t frame) {
    std::uint64_t slot = slotOf(block, m_tableMask);
    while (m_table[slot] != 0)
        slot = (slot + 1) & m_tableMask;
    m_table[slot] = (static_cast<std::uint64_t>(block) << 32) | (std::uint64_t{frame} + 1);
}

void BufferPool::tableErase(std::uint32_t block) {
    std::uint64_t slot = slotOf(block, m_tableMask);
    while (static_cast<std::uint32_t>(m_table[slot] >> 32) != block || m_table[slot] == 0)
        slot = (slot + 1) & m_tableMask;
    // Backward-shift deletion keeps probe chains intact without tombstones.
    std::uint64_t hole = slot;
    for (std::uint64_t next = (hole + 1) & m_tableMask; m_table[next] != 0; next = (next + 1) & m_tableMask) {
        const std::uint64_t home = slotOf(static_cast<std::uint32_t>(m_table[next] >> 32), m_tableMask);
        const bool movable = hole <= next ? (home <= hole || home > next) : (home <= hole && home > next);
        if (movable) {
            m_table[hole] = m_table[next];
            hole = next;
        }
    }
    m_table[hole] = 0;
}

std::uint32_t BufferPool::allocateFrame(std::uint32_t block) {
    std::uint32_t frame;
    if (m_nextUnused < m_frames.size()) {
        frame = m_nextUnused++;
        ++m_resident;
    } else {
        // Clock sweep: every pass over a buffer costs it one usage count; a full circle that finds
        // only pinned buffers means the pool is too small for the stream.
        std::uint64_t steps = 0;
        const std::uint64_t limit = m_frames.size() * (kMaxUsage + 2ULL);
        for (;; ++steps) {
            if (steps > limit)
                throw InputError(
                    "shared buffers (" + std::to_string(m_capacity) +
                    " blocks) are all pinned: give the pool more blocks than max_pinned_buffers");
            Frame& candidate = m_frames[m_clockHand];
            const std::uint32_t here = m_clockHand;
            if (++m_clockHand == m_frames.size())
                m_clockHand = 0;
            if (candidate.pins > 0)
                continue;
            if (candidate.usage > 0) {
                --candidate.usage;
                continue;
            }
            frame = here;
            break;
        }
        tableErase(m_frames[frame].block);
        // The hand's buffer is likely the next victim: its slot is what the next erase looks up.
        __builtin_prefetch(&m_table[slotOf(m_frames[m_clockHand].block, m_tableMask)]);
    }
    tableInsert(block, frame);
    return frame;
}

bool BufferPool::prewarm(std::uint32_t block) {
    if (m_compact) {
        if (testBit(m_allocated, block))
            return false;
        setBit(m_allocated, block);
        setBit(m_valid, block);
        ++m_resident;
        return true;
    }
    if (find(block) >= 0)
        return false;
    const std::uint32_t frame = allocateFrame(block);
    m_frames[frame] = Frame{block, 0, Valid, 1};
    return true;
}

BufferPool::Pinned BufferPool::pinFrame(std::uint32_t block) {
    const std::int64_t found = find(block);
    if (found >= 0) {
        const auto index = static_cast<std::uint32_t>(found);
        Frame& frame = m_frames[index];
        ++frame.pins;
        if (frame.usage < kMaxUsage)
            ++frame.usage;
        return {frame.state == Valid ? PinResult::Hit : PinResult::InProgress, index};
    }
    const std::uint32_t index = allocateFrame(block);
    m_frames[index] = Frame{block, 1, Reading, 1};
    return {PinResult::Allocated, index};
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "buffer_pool.h"

#include <algorithm>

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

// The table's pointer and mask are copied to locals: stores into the table could alias the
// mask (both are uint64_t), and the compiler would reload it after every store.
std::uint64_t BufferPool::probe(std::uint32_t block) const {
    const std::uint64_t* const table = m_table.data();
    const std::uint64_t mask = m_tableMask;
    std::uint64_t slot = slotOf(block, mask);
    while (table[slot] != 0 && static_cast<std::uint32_t>(table[slot] >> 32) != block)
        slot = (slot + 1) & mask;
    return slot;
}

void BufferPool::tableErase(std::uint32_t block) {
    std::uint64_t* const table = m_table.data();
    const std::uint64_t mask = m_tableMask;
    std::uint64_t slot = slotOf(block, mask);
    while (static_cast<std::uint32_t>(table[slot] >> 32) != block || table[slot] == 0)
        slot = (slot + 1) & mask;
    // Backward-shift deletion keeps probe chains intact without tombstones: an entry moves into the
    // hole if the hole lies on its probe path, i.e. its home is at least as far back as the hole.
    // The hole is emptied at once: the table briefly holds one entry more than the pool has frames
    // (allocateFrame), which fills a one-frame pool's two slots, and the scan must still stop.
    std::uint64_t hole = slot;
    table[hole] = 0;
    for (std::uint64_t next = (hole + 1) & mask; table[next] != 0; next = (next + 1) & mask) {
        const std::uint64_t home = slotOf(static_cast<std::uint32_t>(table[next] >> 32), mask);
        if (((next - home) & mask) >= ((next - hole) & mask)) {
            table[hole] = table[next];
            table[next] = 0;
            hole = next;
        }
    }
}

std::uint32_t BufferPool::allocateFrame(std::uint32_t block, std::uint64_t slot) {
    std::uint32_t frame;
    if (m_nextUnused < m_frames.size()) {
        frame = m_nextUnused++;
        ++m_resident;
        m_table[slot] = entryOf(block, frame);
    } else {
        // Clock sweep: every pass over a buffer costs it one usage count; a full circle that finds
        // only pinned buffers means the pool is too small for the stream. The hand and the frames
        // are locals: a store to a usage count (a byte) could alias any member.
        Frame* const frames = m_frames.data();
        const std::uint64_t size = m_frames.size();
        const std::uint64_t limit = size * (kMaxUsage + 2ULL);
        std::uint32_t hand = m_clockHand;
        for (std::uint64_t steps = 0;; ++steps) {
            if (steps > limit) {
                m_clockHand = hand;
                throw InputError(
                    "shared buffers (" + std::to_string(m_capacity) +
                    " blocks) are all pinned: give the pool more blocks than max_pinned_buffers");
            }
            Frame& candidate = frames[hand];
            const std::uint32_t here = hand;
            if (++hand == size)
                hand = 0;
            if (candidate.pins > 0)
                continue;
            if (candidate.usage > 0) {
                --candidate.usage;
                continue;
            }
            frame = here;
            break;
        }
        m_clockHand = hand;
        // Entered before the victim is erased, whose backward shift could move the end of the
        // probe chain: `slot` stays valid and the table is probed once per miss, not twice.
        m_table[slot] = entryOf(block, frame);
        tableErase(m_frames[frame].block);
        // The hand's buffer is likely the next victim: its slot is what the next erase looks up.
        __builtin_prefetch(&m_table[slotOf(m_frames[m_clockHand].block, m_tableMask)]);
    }
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
    const std::uint64_t slot = probe(block);
    if (m_table[slot] != 0)
        return false;
    const std::uint32_t frame = allocateFrame(block, slot);
    m_frames[frame] = Frame{block, 0, Valid, 1};
    return true;
}

std::optional<std::uint64_t> BufferPool::prewarmAll() {
    if (!m_compact)
        return std::nullopt;
    // Bits past the relation's end are never tested: whole words can be set.
    std::fill(m_allocated.begin(), m_allocated.end(), ~std::uint64_t(0));
    std::fill(m_valid.begin(), m_valid.end(), ~std::uint64_t(0));
    const std::uint64_t loaded = m_capacity - m_resident;
    m_resident = m_capacity;
    return loaded;
}

BufferPool::Pinned BufferPool::pinFrame(std::uint32_t block) {
    const std::uint64_t slot = probe(block);
    if (const std::uint64_t entry = m_table[slot]; entry != 0) {
        const auto index = static_cast<std::uint32_t>((entry & 0xFFFFFFFFu) - 1);
        Frame& frame = m_frames[index];
        ++frame.pins;
        if (frame.usage < kMaxUsage)
            ++frame.usage;
        return {frame.state == Valid ? PinResult::Hit : PinResult::InProgress, index};
    }
    const std::uint32_t index = allocateFrame(block, slot);
    m_frames[index] = Frame{block, 1, Reading, 1};
    return {PinResult::Allocated, index};
}

} // namespace la

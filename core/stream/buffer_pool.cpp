// SPDX-License-Identifier: GPL-3.0-or-later
#include "buffer_pool.h"

#include <algorithm>

#include "input_error.h"

#include <bit>
#include <string>

namespace la {

namespace {

std::uint64_t bitmapWords(std::uint64_t bits) {
    return (bits + 63) / 64;
}

// Four buckets a frame: a miss, the common case of a scan larger than the pool, then finds its
// bucket empty nearly four times in five and reads no frame at all (two a frame: three in five), so
// the branch on an empty bucket is mostly right. Eight a frame (512 kB of buckets for the default
// pool) were a little faster for random scans but 8 % slower for sequential ones.
std::uint64_t bucketCount(std::uint64_t capacity) {
    return std::bit_ceil(4 * capacity);
}

} // namespace

void BufferPool::throwAllPinned(std::uint64_t capacity) {
    throw InputError("shared buffers (" + std::to_string(capacity) +
                     " blocks) are all pinned: give the pool more blocks than max_pinned_buffers");
}

BufferPool::BufferPool(std::uint64_t capacity, std::uint64_t relationBlocks, Layout layout,
                       std::uint32_t ringBuffers)
    : m_capacity(capacity),
      m_compact(layout == Layout::Auto && ringBuffers == 0 && capacity >= relationBlocks) {
    if (capacity == 0)
        throw InputError("shared buffers must hold at least one block");
    if (ringBuffers > 0) {
        m_ring.assign(ringBuffers, 0);
        m_ringed = true;
        m_hitUsageCap = 1;
    }
    if (m_compact) {
        m_capacity = relationBlocks;
        m_allocated.assign(bitmapWords(relationBlocks), 0);
        m_valid.assign(bitmapWords(relationBlocks), 0);
        return;
    }
    m_frames.resize(capacity);
    const std::uint64_t buckets = bucketCount(capacity);
    m_buckets.assign(buckets, 0);
    m_bucketMask = buckets - 1;
}

std::uint64_t BufferPool::bytesFor(std::uint64_t capacity, std::uint64_t relationBlocks,
                                   std::uint32_t ringBuffers) {
    if (ringBuffers == 0 && capacity >= relationBlocks)
        return 2 * bitmapWords(relationBlocks) * sizeof(std::uint64_t);
    return capacity * sizeof(Frame) + bucketCount(capacity) * sizeof(std::uint32_t) +
           std::uint64_t{ringBuffers} * sizeof(std::uint32_t);
}

std::uint32_t BufferPool::allocateFromRing(std::uint32_t block, std::uint64_t bucket) {
    if (++m_ringCurrent >= m_ring.size())
        m_ringCurrent = 0;
    std::uint32_t& slot = m_ring[m_ringCurrent];
    if (slot != 0) {
        // Usage 1 is the ring's own (a buffer it allocated, or a hit through it); more means another
        // scan uses the buffer, and a pin that the stream (or its consumer) still holds it.
        const std::uint32_t frame = slot - 1;
        const Frame& buffer = m_frames[frame];
        if (buffer.pins == 0 && buffer.usage <= 1) {
            if (buffer.state == Empty) // evicted since (evict()): in no bucket, and not counted
                ++m_resident;
            else
                unlink(frame);
            link(frame, block, bucket, 1, Reading);
            ++m_ringRecycled;
            return frame;
        }
    }
    const std::uint32_t frame = allocateFrame(block, bucket, 1, Reading);
    slot = frame + 1;
    ++m_ringTaken;
    return frame;
}

std::uint64_t BufferPool::validCount() const {
    std::uint64_t count = 0;
    if (m_compact) {
        for (std::uint64_t word = 0; word < m_valid.size(); ++word) {
            std::uint64_t bits = m_valid[word];
            if (const std::uint64_t end = m_capacity - word * 64; end < 64) // bits past the relation
                bits &= (1ULL << end) - 1;
            count += static_cast<std::uint64_t>(std::popcount(bits));
        }
        return count;
    }
    for (std::uint32_t frame = 0; frame < m_nextUnused; ++frame)
        count += m_frames[frame].state == Valid ? 1 : 0;
    return count;
}

std::vector<std::uint32_t> BufferPool::validBlocks() const {
    std::vector<std::uint32_t> blocks;
    if (m_compact) {
        // prewarmAll() sets the bits past the relation's end too.
        for (std::uint64_t word = 0; word < m_valid.size(); ++word)
            for (std::uint64_t bits = m_valid[word]; bits != 0; bits &= bits - 1)
                if (const std::uint64_t block = word * 64 + std::uint64_t(std::countr_zero(bits));
                    block < m_capacity)
                    blocks.push_back(static_cast<std::uint32_t>(block));
        return blocks;
    }
    for (std::uint32_t frame = 0; frame < m_nextUnused; ++frame)
        if (m_frames[frame].state == Valid)
            blocks.push_back(m_frames[frame].block);
    std::sort(blocks.begin(), blocks.end());
    return blocks;
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
    const std::uint64_t bucket = bucketOf(block);
    if (find(block, bucket) != kNoFrame)
        return false;
    allocateFrame(block, bucket, 0, Valid);
    return true;
}

bool BufferPool::evict(std::uint32_t block) {
    if (m_compact) {
        if (!testBit(m_valid, block))
            return false;
        m_allocated[block >> 6] &= ~(1ULL << (block & 63));
        m_valid[block >> 6] &= ~(1ULL << (block & 63));
        --m_resident;
        return true;
    }
    const std::uint32_t index = find(block, bucketOf(block));
    if (index == kNoFrame || m_frames[index].pins > 0 || m_frames[index].state != Valid)
        return false;
    unlink(index);
    // The clock sweep takes it next time round; until then it is in no bucket.
    m_frames[index].state = Empty;
    m_frames[index].usage = 0;
    --m_resident;
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

} // namespace la

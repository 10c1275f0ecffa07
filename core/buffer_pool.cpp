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
    const std::uint64_t buckets = bucketCount(capacity);
    m_buckets.assign(buckets, 0);
    m_bucketMask = buckets - 1;
}

std::uint64_t BufferPool::bytesFor(std::uint64_t capacity, std::uint64_t relationBlocks) {
    if (capacity >= relationBlocks)
        return 2 * bitmapWords(relationBlocks) * sizeof(std::uint64_t);
    return capacity * sizeof(Frame) + bucketCount(capacity) * sizeof(std::uint32_t);
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

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

// Two buckets a frame: a miss, the common case of a scan larger than the pool, then finds its
// bucket empty more often than not and reads no frame at all (a bucket a frame: one in three).
std::uint64_t bucketCount(std::uint64_t capacity) {
    return std::bit_ceil(2 * capacity);
}

// Out of line and cold, so that allocateFrame() does not save and restore every callee-saved
// register for the message's strings on each miss.
[[noreturn, gnu::cold, gnu::noinline]] void throwAllPinned(std::uint64_t capacity) {
    throw InputError("shared buffers (" + std::to_string(capacity) +
                     " blocks) are all pinned: give the pool more blocks than max_pinned_buffers");
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
    const std::uint64_t buckets = bucketCount(capacity);
    m_buckets.assign(buckets, 0);
    m_bucketMask = buckets - 1;
}

std::uint64_t BufferPool::bytesFor(std::uint64_t capacity, std::uint64_t relationBlocks) {
    if (capacity >= relationBlocks)
        return 2 * bitmapWords(relationBlocks) * sizeof(std::uint64_t);
    return capacity * sizeof(Frame) + bucketCount(capacity) * sizeof(std::uint32_t);
}

void BufferPool::unlink(std::uint32_t frame) {
    // Doubly linked, so an eviction touches its neighbours only, instead of walking its bucket
    // from the head through frames scattered over the pool.
    Frame* const frames = m_frames.data();
    const Frame& gone = frames[frame];
    if (gone.prev == 0)
        m_buckets[bucketOf(gone.block)] = gone.next;
    else
        frames[gone.prev - 1].next = gone.next;
    if (gone.next != 0)
        frames[gone.next - 1].prev = gone.prev;
}

std::uint32_t BufferPool::allocateFrame(std::uint32_t block, std::uint64_t bucket, std::uint32_t pins,
                                        std::uint8_t state) {
    std::uint32_t frame;
    if (m_nextUnused < m_capacity) { // m_capacity frames (size() would divide by a frame's size)
        frame = m_nextUnused++;
        ++m_resident;
    } else {
        // Clock sweep: every pass over a buffer costs it one usage count; circles that find only
        // pinned buffers mean the pool is too small for the stream (counted where the hand wraps,
        // not on every step: an unpinned buffer is a victim within kMaxUsage + 1 circles). The hand
        // and the frames are locals: a store to a usage count (a byte) could alias any member.
        Frame* const frames = m_frames.data();
        const std::uint64_t size = m_capacity;
        std::uint32_t hand = m_clockHand;
        for (unsigned circles = 0;;) {
            Frame& candidate = frames[hand];
            const std::uint32_t here = hand;
            if (++hand == size) {
                hand = 0;
                if (++circles > kMaxUsage + 2U) {
                    m_clockHand = hand;
                    throwAllPinned(m_capacity);
                }
            }
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
        unlink(frame);
        // The hand's buffer is likely the next victim: its bucket is what the next unlink walks.
        __builtin_prefetch(&m_buckets[bucketOf(frames[hand].block)]);
    }
    // Read after the unlink, which may have changed this very bucket.
    std::uint32_t& head = m_buckets[bucket];
    if (head != 0)
        m_frames[head - 1].prev = frame + 1;
    m_frames[frame] = Frame{block, pins, head, 0, state, 1};
    head = frame + 1;
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
    const std::uint64_t bucket = bucketOf(block);
    if (find(block, bucket) != kNoFrame)
        return false;
    allocateFrame(block, bucket, 0, Valid);
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

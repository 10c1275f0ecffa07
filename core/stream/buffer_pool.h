// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace la {

enum class PinResult : std::uint8_t {
    Hit,        // valid in shared buffers: no I/O
    InProgress, // allocated, its read not finished yet (another read of this stream owns it)
    Allocated,  // newly allocated: needs I/O
};

// Simulated shared buffers. Like PostgreSQL, hit or miss is decided when the stream pins a block
// during look-ahead, blocks read by the stream become resident, and a full pool evicts with a
// clock sweep over usage counts (pinned buffers are never evicted). A stream that reads through a
// BULKREAD ring (docs/read-stream-model.md §14) recycles the ring's buffers instead, and takes one
// from the main pool only while a ring slot is empty, or its buffer is pinned or used by others.
class BufferPool {
public:
    enum class Layout : std::uint8_t {
        Auto,  // compact when the pool can hold the whole relation, else frames and a hash table
        Frames // always frames and a hash table (tests compare it with the compact layout)
    };
    // `relationBlocks` bounds the block numbers. When the pool can hold the whole relation nothing
    // is ever evicted, so pins and usage counts decide nothing: the pool keeps two bits per block
    // (allocated, valid) and a block is its own frame handle (the common case for patterns; a
    // 100 M-block relation takes 25 MB instead of 3 GB of frames).
    // `ringBuffers` > 0: pin() allocates through a ring of that many buffers (a ring evicts, so the
    // pool keeps frames whatever its size).
    BufferPool(std::uint64_t capacity, std::uint64_t relationBlocks, Layout layout = Layout::Auto,
               std::uint32_t ringBuffers = 0);
    // The memory such a pool allocates, so that callers can check it first.
    static std::uint64_t bytesFor(std::uint64_t capacity, std::uint64_t relationBlocks,
                                  std::uint32_t ringBuffers = 0);

    std::uint64_t capacity() const { return m_capacity; }
    std::uint64_t resident() const { return m_resident; }
    // The blocks valid in the pool (after a run: what stays in shared buffers), ascending.
    std::vector<std::uint32_t> validBlocks() const;
    std::uint64_t validCount() const;
    // Buffers the ring took from the main pool (AddBufferToRing), and ring buffers it recycled.
    std::uint64_t ringTakenFromPool() const { return m_ringTaken; }
    std::uint64_t ringRecycled() const { return m_ringRecycled; }

    // Makes `block` valid without I/O (prewarm). Returns false if it was already resident.
    bool prewarm(std::uint32_t block);
    // Makes every block valid, a bitmap word at a time (prewarm "all" of a 4 G-block relation takes
    // milliseconds, not a minute). Returns how many became resident; nothing for a pool of frames,
    // which has to be prewarmed block by block.
    std::optional<std::uint64_t> prewarmAll();
    // Whether `block` has a buffer (valid or being read).
    bool contains(std::uint32_t block) const {
        return m_compact ? testBit(m_allocated, block) : find(block, bucketOf(block)) != kNoFrame;
    }
    // Drops `block` from the pool, as another backend's eviction would (an imported trace shows the
    // server reading it again). Returns false if it is not resident, still being read, or pinned.
    bool evict(std::uint32_t block);

    struct Pinned {
        PinResult result;
        std::uint32_t frame; // handle for unpin() and markValid(), valid while pinned
    };
    // Pins `block`, allocating (and maybe evicting) on a miss. Through a ring, as PinBuffer() with a
    // strategy, a hit raises the buffer's usage count to 1 at most, so that the scan does not keep
    // what it passes over.
    Pinned pin(std::uint32_t block) { return m_compact ? pinCompact(block) : pinFrame(block); }
    // A hint that `block` will be pinned soon: its hash slot (or bitmap word) is fetched into the
    // cache meanwhile, instead of stalling the pin on a cache miss.
    void prefetch(std::uint32_t block) const {
        if (m_compact)
            __builtin_prefetch(&m_allocated[block >> 6]);
        else
            __builtin_prefetch(&m_buckets[bucketOf(block)]);
    }
    void unpin(std::uint32_t frame) {
        if (!m_compact)
            --m_frames[frame].pins;
    }
    void markValid(std::uint32_t frame) {
        if (m_compact)
            setBit(m_valid, frame);
        else
            m_frames[frame].state = Valid;
    }

private:
    enum : std::uint8_t { Empty = 0, Reading = 1, Valid = 2 };
    static constexpr std::uint32_t kNoFrame = ~std::uint32_t(0);
    static constexpr std::uint8_t kMaxUsage = 5; // PostgreSQL's BM_MAX_USAGE_COUNT
    struct Frame {
        std::uint32_t block = 0;
        std::uint32_t pins = 0;
        std::uint32_t next = 0; // the next frame of its hash bucket, + 1 (0 ends the bucket)
        std::uint32_t prev = 0; // the previous one, + 1 (0: this frame is the bucket's first)
        std::uint8_t state = Empty;
        std::uint8_t usage = 0;
    };

    std::uint64_t bucketOf(std::uint32_t block) const {
        return (static_cast<std::uint64_t>(block) * 0x9E3779B97F4A7C15ULL >> 17) & m_bucketMask;
    }
    static bool testBit(const std::vector<std::uint64_t>& bits, std::uint32_t i) {
        return (bits[i >> 6] >> (i & 63)) & 1U;
    }
    static void setBit(std::vector<std::uint64_t>& bits, std::uint32_t i) {
        bits[i >> 6] |= 1ULL << (i & 63);
    }
    Pinned pinCompact(std::uint32_t block) {
        if (testBit(m_allocated, block))
            return {testBit(m_valid, block) ? PinResult::Hit : PinResult::InProgress, block};
        setBit(m_allocated, block);
        ++m_resident;
        return {PinResult::Allocated, block};
    }
    // Inline, the hit and the hash lookup: the stream pins a block or more for every buffer.
    Pinned pinFrame(std::uint32_t block) {
        const std::uint64_t bucket = bucketOf(block); // hashed once for the lookup and the insert
        if (const std::uint32_t index = find(block, bucket); index != kNoFrame) {
            Frame& frame = m_frames[index];
            ++frame.pins;
            if (frame.usage < m_hitUsageCap)
                ++frame.usage;
            return {frame.state == Valid ? PinResult::Hit : PinResult::InProgress, index};
        }
        if (m_ringed)
            return {PinResult::Allocated, allocateFromRing(block, bucket)};
        return {PinResult::Allocated, allocateFrame(block, bucket, 1, Reading)};
    }
    // The frame holding `block` (in bucketOf(block)), or kNoFrame. The frames' pointer is a local:
    // stores through it (a byte in Frame) could alias any member.
    std::uint32_t find(std::uint32_t block, std::uint64_t bucket) const {
        const Frame* const frames = m_frames.data();
        for (std::uint32_t link = m_buckets[bucket]; link != 0; link = frames[link - 1].next)
            if (frames[link - 1].block == block)
                return link - 1;
        return kNoFrame;
    }
    // A frame for `block` (in bucketOf(block)), which is not resident, evicting if the pool is full.
    // Inline, with its sweep: a scan larger than the pool evicts on every miss, and a call would
    // save and restore the stream's registers each time.
    std::uint32_t allocateFrame(std::uint32_t block, std::uint64_t bucket, std::uint32_t pins,
                                std::uint8_t state);
    // The ring's next buffer for `block`, pinned, or one from the main pool put in its slot
    // (GetBufferFromRing, AddBufferToRing).
    std::uint32_t allocateFromRing(std::uint32_t block, std::uint64_t bucket);
    // Puts `block` in `frame` (out of every bucket), at the head of bucketOf(block).
    void link(std::uint32_t frame, std::uint32_t block, std::uint64_t bucket, std::uint32_t pins,
              std::uint8_t state);
    void unlink(std::uint32_t frame); // from its bucket
    // Out of line and cold, so that a miss does not save and restore every callee-saved register
    // for the message's strings.
    [[noreturn, gnu::cold, gnu::noinline]] static void throwAllPinned(std::uint64_t capacity);

    std::uint64_t m_capacity;
    bool m_compact;
    bool m_ringed = false; // m_ring is in use: beside the layout, one load away on every miss
    std::uint64_t m_resident = 0;
    // Compact layout: one bit per block for "has a buffer" (being read or valid) and one for valid.
    std::vector<std::uint64_t> m_allocated;
    std::vector<std::uint64_t> m_valid;
    std::vector<Frame> m_frames;
    std::uint32_t m_nextUnused = 0;
    std::uint32_t m_clockHand = 0;
    // The frames layout's block -> frame map: a hash table chained through the frames (Frame::next
    // and Frame::prev), each bucket the first frame + 1 (0 = empty). A miss costs a bucket and
    // seldom a frame, where open addressing's eviction shifted a whole probe cluster back.
    std::vector<std::uint32_t> m_buckets;
    std::uint64_t m_bucketMask = 0;
    // A hit's usage count goes up to this: kMaxUsage, or 1 through a ring.
    std::uint8_t m_hitUsageCap = kMaxUsage;
    // The ring's slots, each a frame + 1 (0: not filled yet), and the slot last used.
    std::vector<std::uint32_t> m_ring;
    std::size_t m_ringCurrent = 0;
    std::uint64_t m_ringTaken = 0;
    std::uint64_t m_ringRecycled = 0;
};

inline void BufferPool::unlink(std::uint32_t frame) {
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

inline std::uint32_t BufferPool::allocateFrame(std::uint32_t block, std::uint64_t bucket, std::uint32_t pins,
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
        if (frames[frame].state == Empty) // evicted earlier: in no bucket, and not counted
            ++m_resident;
        else
            unlink(frame);
    }
    link(frame, block, bucket, pins, state);
    return frame;
}

inline void BufferPool::link(std::uint32_t frame, std::uint32_t block, std::uint64_t bucket,
                             std::uint32_t pins, std::uint8_t state) {
    // Read after the caller's unlink, which may have changed this very bucket.
    std::uint32_t& head = m_buckets[bucket];
    if (head != 0)
        m_frames[head - 1].prev = frame + 1;
    m_frames[frame] = Frame{block, pins, head, 0, state, 1};
    head = frame + 1;
}

} // namespace la

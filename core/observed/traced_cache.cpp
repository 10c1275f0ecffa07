// SPDX-License-Identifier: GPL-3.0-or-later
#include "traced_cache.h"

#include "buffer_pool.h"
#include "memory_budget.h"
#include "message_text.h"
#include "prewarm.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace la {

namespace {

constexpr std::size_t kExamples = 5;

// Where a block's reads sit in the trace: positions[first, first + count), ascending, and how many
// of them visits have matched so far.
struct BlockReads {
    std::uint64_t first = 0;
    std::uint32_t count = 0;
    std::uint32_t matched = 0;
};

bool testBit(const std::vector<std::uint64_t>& bits, std::uint64_t i) {
    return (bits[i >> 6] >> (i & 63)) & 1U;
}

// "42, 97": the first blocks, "…" after them when there may be more.
std::string examples(const std::vector<std::uint32_t>& blocks) {
    std::string text;
    for (const std::uint32_t block : blocks)
        text.append(text.empty() ? "" : ", ").append(std::to_string(block));
    return blocks.size() == kExamples ? text + ", …" : text;
}

void setBit(std::vector<std::uint64_t>& bits, std::uint64_t i) {
    bits[i >> 6] |= 1ULL << (i & 63);
}

// The trace's reads by block: where each block's reads sit in the trace.
struct ReadIndex {
    std::vector<std::uint64_t> positions; // the reads' places in the trace, by block, then place
    std::unordered_map<std::uint32_t, BlockReads> byBlock;
};

ReadIndex indexReads(const std::vector<std::uint32_t>& reads) {
    std::vector<std::pair<std::uint32_t, std::uint64_t>> byBlockOrder;
    byBlockOrder.reserve(reads.size());
    for (std::uint64_t i = 0; i < reads.size(); ++i)
        byBlockOrder.emplace_back(reads[i], i);
    std::sort(byBlockOrder.begin(), byBlockOrder.end());
    ReadIndex index;
    index.positions.resize(byBlockOrder.size());
    for (std::uint64_t i = 0; i < byBlockOrder.size(); ++i) {
        index.positions[i] = byBlockOrder[i].second;
        BlockReads& entry = index.byBlock[byBlockOrder[i].first];
        if (entry.count++ == 0)
            entry.first = i;
    }
    return index;
}

// Walks the visits (rewound afterwards), matching each read to the visit it served, and marks the
// visited blocks in `cache.cachedBits`. False if cancelled.
bool matchVisits(BlockSource& visits, ReadIndex& index, const std::atomic<bool>* cancel, TracedCache& cache) {
    visits.rewind();
    for (SourceItem item = visits.next(); item.step != SourceStep::End; item = visits.next()) {
        if (item.step != SourceStep::Block)
            continue;
        if ((cache.visits & 0xFFFF) == 0 && cancel && cancel->load(std::memory_order_relaxed)) {
            visits.rewind();
            return false;
        }
        const std::uint64_t visit = cache.visits++;
        setBit(cache.cachedBits, item.block);
        const auto found = index.byBlock.find(item.block);
        if (found == index.byBlock.end())
            continue;
        BlockReads& block = found->second;
        if (block.matched == block.count)
            continue;
        const std::uint64_t position = index.positions[block.first + block.matched];
        // The first visit of a block the server read is its miss; a later read matches the first
        // visit by which the misses before it have (nearly) caught up with its place in the trace.
        if (block.matched > 0 && cache.misses + kRereadTolerance < position)
            continue;
        if (block.matched > 0) {
            ++cache.rereads;
            cache.rereadVisits.push_back(visit);
        }
        cache.visitOfRead[position] = visit;
        ++block.matched;
        ++cache.misses;
    }
    visits.rewind();
    return true;
}

// Narrows `cache.cachedBits` from the visited blocks to those cached at the start: the visited
// blocks the trace never read, or with a `snapshot` those it holds (counting where the two disagree).
void narrowToCached(const ReadIndex& index, std::uint64_t relation, const PrewarmSpec* snapshot,
                    TracedCache& cache) {
    std::vector<std::uint64_t>& visited = cache.cachedBits;
    std::vector<std::uint64_t> readBits(visited.size(), 0);
    for (const auto& [block, entry] : index.byBlock) {
        if (block >= relation || !testBit(visited, block))
            continue;
        ++cache.readBlocks;
        setBit(readBits, block);
    }
    for (std::uint64_t word = 0; word < visited.size(); ++word) {
        if (!snapshot) {
            visited[word] &= ~readBits[word];
            continue;
        }
        for (std::uint64_t bits = visited[word]; bits != 0; bits &= bits - 1) {
            const std::uint64_t bit = std::uint64_t(__builtin_ctzll(bits));
            const bool cached = snapshot->contains(static_cast<std::uint32_t>(word * 64 + bit));
            const bool read = (readBits[word] >> bit) & 1U;
            cache.snapshotButRead += cached && read ? 1 : 0;
            cache.neitherCachedNorRead += !cached && !read ? 1 : 0;
            if (!cached)
                visited[word] &= ~(1ULL << bit);
        }
    }
    cache.fromSnapshot = snapshot != nullptr;
    for (const std::uint64_t word : cache.cachedBits)
        cache.cachedBlocks += std::uint64_t(__builtin_popcountll(word));
}

// The disagreements, with examples in the trace's order.
void countDisagreements(const std::vector<std::uint32_t>& reads, ReadIndex& index, TracedCache& cache) {
    for (const std::uint32_t block : reads) {
        if (index.byBlock[block].matched == 0) {
            ++cache.unvisitedReads;
            if (cache.unvisitedExamples.size() < kExamples &&
                std::find(cache.unvisitedExamples.begin(), cache.unvisitedExamples.end(), block) ==
                    cache.unvisitedExamples.end())
                cache.unvisitedExamples.push_back(block);
        }
    }
    for (const auto& [block, entry] : index.byBlock)
        if (entry.matched > 0 && entry.matched < entry.count) {
            cache.unmatchedReads += entry.count - entry.matched;
            if (cache.unmatchedExamples.size() < kExamples)
                cache.unmatchedExamples.push_back(block);
        }
    std::sort(cache.unmatchedExamples.begin(), cache.unmatchedExamples.end());
}

} // namespace

std::uint64_t TracedCache::apply(BufferPool& pool, bool* leftOut) const {
    std::uint64_t loaded = 0;
    bool left = false;
    for (std::uint64_t word = 0; word < cachedBits.size() && !left; ++word)
        for (std::uint64_t bits = cachedBits[word]; bits != 0; bits &= bits - 1) {
            const auto block = static_cast<std::uint32_t>(word * 64 + std::uint64_t(__builtin_ctzll(bits)));
            if (pool.resident() < pool.capacity()) {
                loaded += pool.prewarm(block) ? 1 : 0;
            } else if (!pool.contains(block)) {
                left = true; // the pool is full and this block found no room
                break;
            }
        }
    if (leftOut)
        *leftOut = left;
    return loaded;
}

std::string TracedCache::describe() const {
    if (fromSnapshot)
        return "cache state from the snapshot of shared buffers at the start: " + counted(cachedBlocks) +
               " of the " + counted(visits) + " visits' blocks were resident; " + counted(readBlocks) +
               " visited blocks the server read, " + counted(rereads) + " of them read again";
    return "cache state from the trace: " + counted(visits) + " visits give " + counted(misses) +
           " misses (the first visit of each of the " + counted(readBlocks) +
           " visited blocks the server read, and " + counted(rereads) +
           " re-reads of a block read again) and " + counted(hits()) + " hits; the " + counted(cachedBlocks) +
           " visited blocks the trace never read were in shared buffers at the start";
}

std::vector<std::string> TracedCache::disagreements() const {
    std::vector<std::string> lines;
    if (unvisitedReads > 0)
        lines.push_back("the trace has " + counted(unvisitedReads) +
                        " read(s) of blocks the scan never visits (e.g. " + examples(unvisitedExamples) +
                        "): the visits are not this trace's scan, or the trace holds other queries' reads");
    if (snapshotButRead > 0)
        lines.push_back("the snapshot had " + counted(snapshotButRead) +
                        " visited block(s) in shared buffers that the server read all the same: evicted "
                        "between the snapshot and their visit (another session, or the query's own reads)");
    if (neitherCachedNorRead > 0)
        lines.push_back(counted(neitherCachedNorRead) +
                        " visited block(s) were neither in the snapshot nor read in the trace: another "
                        "session read them meanwhile, or the trace missed reads (io_uring)");
    if (unmatchedReads > 0)
        lines.push_back("the trace has " + counted(unmatchedReads) +
                        " read(s) of a block that its later visits cannot explain (e.g. " +
                        examples(unmatchedExamples) +
                        "): read again with no visit left, or far from its place in the visit order");
    return lines;
}

std::vector<std::uint32_t> readVisitPositions(const ObservedTrace& trace, const TracedCache& cache) {
    std::vector<std::uint32_t> positions;
    positions.reserve(trace.reads.size());
    std::uint64_t firstBlock = 0;
    std::uint32_t last = 0;
    for (const ObservedRead& read : trace.reads) {
        if (firstBlock < cache.visitOfRead.size() && cache.visitOfRead[firstBlock] != TracedCache::kNoVisit)
            last = static_cast<std::uint32_t>(
                std::min<std::uint64_t>(cache.visitOfRead[firstBlock], UINT32_MAX));
        positions.push_back(last);
        firstBlock += read.nblocks;
    }
    return positions;
}

TracedCache deriveTracedCache(const std::vector<std::uint32_t>& reads, BlockSource& visits,
                              const std::atomic<bool>* cancel, const PrewarmSpec* snapshot) {
    const std::uint64_t relation = visits.relationBlocks();
    requireMemory(relation / 8 + reads.size() * 48,
                  "the trace's cache state over a relation of " + counted(relation) + " blocks",
                  "give fewer visits (a shorter block list or a smaller pattern)");
    ReadIndex index = indexReads(reads);
    TracedCache cache;
    cache.visitOfRead.assign(reads.size(), TracedCache::kNoVisit);
    cache.cachedBits.assign((relation + 63) / 64, 0);
    if (!matchVisits(visits, index, cancel, cache))
        return {};
    narrowToCached(index, relation, snapshot, cache);
    countDisagreements(reads, index, cache);
    return cache;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "index_scan.h"

#include "btree_reader.h"
#include "heap_page.h"
#include "index_tuple.h"
#include "input_error.h"

#include <algorithm>

namespace la::pg {

namespace {

// Turns the TIDs of a scan into visits and their facts.
class VisitBuilder {
public:
    explicit VisitBuilder(IndexVisits& out) : m_out(out) {}

    void startPage() { m_pageReturned = false; }
    void add(std::uint32_t block) {
        ++m_out.facts.tids;
        if (!m_pageReturned) {
            m_pageReturned = true;
            ++m_out.facts.leafPages;
            m_newBatch = true;
        }
        if (!m_out.blocks.empty() && block == m_out.blocks.back())
            return; // the heap block did not change: no request
        if (m_newBatch && !m_out.blocks.empty())
            m_out.batchStarts.push_back(m_out.blocks.size());
        m_newBatch = false;
        m_out.blocks.push_back(block);
    }

    void finish() {
        IndexFacts& f = m_out.facts;
        const std::vector<std::uint32_t>& b = m_out.blocks;
        f.visits = b.size();
        for (std::size_t i = 1; i < b.size(); ++i) {
            if (b[i] == b[i - 1] + 1)
                ++f.ascendingSteps;
            else if (b[i] + 1 == b[i - 1])
                ++f.descendingSteps;
            else
                ++f.randomSteps;
        }
        if (b.empty())
            return;
        m_out.maxBlock = *std::max_element(b.begin(), b.end());
        std::vector<bool> seen(std::size_t{m_out.maxBlock} + 1);
        for (const std::uint32_t block : b)
            if (!seen[block]) {
                seen[block] = true;
                ++f.distinctBlocks;
            }
    }

private:
    IndexVisits& m_out;
    bool m_pageReturned = false;
    bool m_newBatch = false;
};

// Where a tuple's key lies against the range in the scan's direction.
enum class Place { Before, Inside, After };

// Item `n` of a leaf. btreePageProblem() checked the bounds and the parse of every item in use; an
// unused one's offset and length mean nothing, so reading one is refused rather than done.
IndexTuple tupleAt(const BtreeReader& reader, const LeafPage& p, std::uint32_t n) {
    const LinePointer lp = linePointer(p.page, n);
    if (lp.flags == kLpUnused)
        reader.fail(p.block, "item " + std::to_string(n) + " is unused where an entry is needed");
    IndexTuple tuple;
    if (const std::string problem = parseIndexTuple(p.page + lp.offset, lp.length, tuple); !problem.empty())
        reader.fail(p.block, "item " + std::to_string(n) + ": " + problem);
    return tuple;
}

// Keys ascend along the leaf level, so on each page no entry is above its high key and the right
// sibling's first entry is not below it (docs/pg-relations.md §2.4); within a page each entry is
// not below the one before. Checked on the pages a range scan reads, as --pg-key's types.
class KeyOrder {
public:
    KeyOrder(const BtreeReader& reader, const KeyRange& range, bool forward)
        : m_reader(reader), m_range(range), m_forward(forward) {}

    // `highKey`: none on the rightmost page; `firstKey`: none if the page has no entries.
    void startPage(const LeafPage& p, const std::optional<TupleKey>& highKey,
                   const std::optional<TupleKey>& firstKey) {
        // Forward, the left sibling's high key bounds this page's first entry; backward, this
        // page's high key bounds the right sibling's first entry.
        const std::string sibling = " of its " + std::string(m_forward ? "left" : "right") +
                                    " sibling, block " + std::to_string(m_boundaryBlock);
        if (m_forward && m_boundary && firstKey && above(*m_boundary, *firstKey))
            fail(p.block, "its first key " + text(*firstKey) + " is below the high key " + text(*m_boundary) +
                              sibling);
        if (!m_forward && m_boundary && highKey && above(*highKey, *m_boundary))
            fail(p.block,
                 "its high key " + text(*highKey) + " is above the first key " + text(*m_boundary) + sibling);
        if (const std::optional<TupleKey>& next = m_forward ? highKey : firstKey; next) {
            m_boundary = next;
            m_boundaryBlock = p.block;
        }
        m_block = p.block;
        m_highKey = highKey;
        m_previousItem = 0;
    }

    // Item `n`'s key, read in scan order; `previous` is the key of the item read before it on this
    // page (if there was one).
    void checkItem(std::uint32_t n, const TupleKey& key, const TupleKey& previous) {
        if (m_highKey && above(key, *m_highKey))
            fail(m_block, "item " + std::to_string(n) + "'s key " + text(key) +
                              " is above the page's high key " + text(*m_highKey));
        if (m_previousItem != 0 && (m_forward ? above(previous, key) : above(key, previous)))
            fail(m_block, "item " + std::to_string(std::min(n, m_previousItem)) + "'s key " +
                              text(m_forward ? previous : key) + " is above item " +
                              std::to_string(std::max(n, m_previousItem)) + "'s " +
                              text(m_forward ? key : previous));
        m_previousItem = n;
    }

private:
    bool above(const TupleKey& a, const TupleKey& b) const { return compareKeys(m_range.columns, a, b) > 0; }
    std::string text(const TupleKey& key) const { return keyText(m_range.columns, key); }

    [[noreturn]] void fail(std::uint64_t block, const std::string& what) const {
        m_reader.fail(block, what +
                                 ": the leaf level's keys are out of order as --pg-key reads them (the "
                                 "pages are corrupt, or the types are not the index's columns, or a "
                                 "column is DESC or NULLS FIRST" +
                                 (m_range.comparesText() ? std::string(", or its collation is not C") : "") +
                                 ")");
    }

    const BtreeReader& m_reader;
    const KeyRange& m_range;
    bool m_forward;
    std::optional<TupleKey> m_boundary; // see startPage()
    std::uint64_t m_boundaryBlock = 0;
    std::optional<TupleKey> m_highKey; // the current page's
    std::uint64_t m_block = 0;         // the current page
    std::uint32_t m_previousItem = 0;  // the item read before, on this page (0: none yet)
};

// One scan's walk of the leaf level: which leaf it starts at, and each leaf page's items in scan
// order, turned into visits (with a key range, only the items inside it, keys checked in order).
class LeafScan {
public:
    LeafScan(const IndexScanSpec& spec, const BtreeReader& reader, IndexVisits& out)
        : m_spec(spec), m_reader(reader), m_out(out), m_visits(out),
          m_forward(spec.direction == Direction::Forward) {
        if (spec.range)
            m_order.emplace(reader, *spec.range, m_forward);
    }

    // Where the descent goes: forward to the first key >= LO, backward to the last key <= HI; with
    // no range, to the ends of the leaf level.
    bool startIsRightOf(const IndexTuple& separator, std::uint64_t block) const {
        if (!m_spec.range)
            return !m_forward;
        // A separator cut short by suffix truncation is minus infinity in its missing columns, so
        // one equal to LO in the columns it keeps is still left of the start; NULL sorts last.
        const KeyRange& range = *m_spec.range;
        TupleKey key;
        if (const std::string problem = readTupleKey(separator, range.columns, range.compared(), key);
            !problem.empty())
            m_reader.fail(block, "a separator: " + problem);
        return m_forward ? compareKeys(range.columns, key, range.lo) < 0
                         : compareKeys(range.columns, key, range.hi) <= 0;
    }

    // Returns false once the page has an item past the range: the scan ends there.
    bool readPage(const LeafPage& p) {
        m_visits.startPage();
        // On every page but the rightmost, item 1 is the high key: a copy of a separator, no TID.
        // The page was checked whole as it was read (btreePageProblem): every item parses.
        const std::uint32_t first = p.opaque.rightmost() ? 1 : 2;
        const std::uint32_t count = lineCount(p.header);
        if (m_spec.range)
            startKeyOrder(p, first, count);
        for (std::uint32_t i = 0; first + i <= count; ++i) {
            const std::uint32_t n = m_forward ? first + i : count - i;
            const LinePointer lp = linePointer(p.page, n);
            if (lp.flags == kLpUnused)
                continue;
            const IndexTuple tuple = tupleAt(m_reader, p, n);
            if (m_spec.range) {
                std::swap(m_key, m_previousKey);
                readKey(tuple, p, n, m_key);
                m_order->checkItem(n, m_key, m_previousKey);
                const Place where = place(m_key);
                if (where == Place::After)
                    return false; // sorted: nothing further along is in range
                if (where == Place::Before)
                    continue;
            }
            addItem(lp, tuple, p, n);
        }
        return true;
    }

    void finish() { m_visits.finish(); }

private:
    // The page's high key and first key, for the check of the leaf level's key order.
    void startKeyOrder(const LeafPage& p, std::uint32_t first, std::uint32_t count) {
        // The first key is that of the first item in use (an unused one has no tuple to read).
        std::uint32_t firstUsed = first;
        while (firstUsed <= count && linePointer(p.page, firstUsed).flags == kLpUnused)
            ++firstUsed;
        std::optional<TupleKey> highKey, firstKey;
        if (!p.opaque.rightmost())
            readKey(tupleAt(m_reader, p, 1), p, 1, highKey.emplace());
        if (firstUsed <= count)
            readKey(tupleAt(m_reader, p, firstUsed), p, firstUsed, firstKey.emplace());
        m_order->startPage(p, highKey, firstKey);
    }

    // The compared columns of item `n`, into `key`.
    void readKey(const IndexTuple& tuple, const LeafPage& p, std::uint32_t n, TupleKey& key) const {
        const KeyRange& range = *m_spec.range;
        if (const std::string problem = readTupleKey(tuple, range.columns, range.compared(), key);
            !problem.empty())
            m_reader.fail(p.block, "item " + std::to_string(n) + ": " + problem);
    }

    // Past HI (forward) or below LO (backward) ends the scan, as every key further along is too; an
    // entry between the two whose later column is outside its bounds is passed over, as the index
    // AM's own check of the scan keys does, without a heap visit.
    Place place(const TupleKey& key) const {
        const KeyRange& range = *m_spec.range;
        if (compareKeys(range.columns, key, range.lo) < 0)
            return m_forward ? Place::Before : Place::After;
        if (compareKeys(range.columns, key, range.hi) > 0)
            return m_forward ? Place::After : Place::Before;
        return range.contains(key) ? Place::Inside : Place::Before;
    }

    // An item the scan returns: its TIDs, in scan order, unless an earlier scan killed it.
    void addItem(const LinePointer& lp, const IndexTuple& tuple, const LeafPage& p, std::uint32_t n) {
        if (lp.flags == kLpDead) {
            ++m_out.facts.deadItems; // killed by an earlier scan: an index scan skips it
            return;
        }
        if (!tuple.posting) {
            addTid(tuple.tid, p, n);
            return;
        }
        ++m_out.facts.postingLists;
        for (std::uint32_t k = 0; k < tuple.postingCount; ++k)
            addTid(tuple.postingTid(m_forward ? k : tuple.postingCount - 1 - k), p, n);
    }

    void addTid(Tid tid, const LeafPage& p, std::uint32_t n) {
        if (m_spec.heapBlocks && tid.block >= *m_spec.heapBlocks)
            m_reader.fail(p.block, "item " + std::to_string(n) + " points at heap block " +
                                       std::to_string(tid.block) + ", past the end of --pg-heap '" +
                                       m_spec.heap + "' (" + std::to_string(*m_spec.heapBlocks) +
                                       " blocks in all its segment files): is that this index's table?");
        if (tid.offset == 0 || tid.offset > kMaxHeapTuplesPerPage)
            m_reader.fail(p.block, "item " + std::to_string(n) + " points at line pointer " +
                                       std::to_string(tid.offset) + " of heap block " +
                                       std::to_string(tid.block) + " (a heap page has 1.." +
                                       std::to_string(kMaxHeapTuplesPerPage) + ")");
        m_visits.add(tid.block);
    }

    const IndexScanSpec& m_spec;
    const BtreeReader& m_reader;
    IndexVisits& m_out;
    VisitBuilder m_visits;
    bool m_forward;
    std::optional<KeyOrder> m_order; // with a key range
    TupleKey m_key, m_previousKey;   // of the item read last, and of the one before it
};

} // namespace

IndexVisits scanIndex(const IndexScanSpec& spec) {
    const SegmentedRelation index(spec.index, "--pg-index");
    BtreeReader reader(index, spec.checksums);
    IndexVisits out;
    out.facts.indexBlocks = index.blocks();
    out.facts.checksums = reader.checksums();
    LeafScan scan(spec, reader, out);
    reader.walkLeaves(
        spec.direction,
        [&](const IndexTuple& separator, std::uint64_t block) {
            return scan.startIsRightOf(separator, block);
        },
        [&](const LeafPage& p) { return scan.readPage(p); });
    if (const std::string changed = index.changes(); !changed.empty())
        throw InputError("--pg-index changed while it was read (" + changed +
                         "): is a server writing it? Stop it or CHECKPOINT and copy the files first");
    scan.finish();
    return out;
}

} // namespace la::pg

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

// A leading key as the scan compares it; nothing is NULL, which sorts after every number.
using Key = std::optional<std::int64_t>;

bool above(const Key& a, const Key& b) {
    return a ? b && *a > *b : static_cast<bool>(b);
}

std::string keyText(const Key& key) {
    return key ? std::to_string(*key) : std::string("NULL");
}

// Keys ascend along the leaf level, so on each page no entry is above its high key and the right
// sibling's first entry is not below it (docs/pg-relations.md §2.4). Checked on the pages a
// range scan reads, as the range's integer type.
class KeyOrder {
public:
    KeyOrder(const BtreeReader& reader, bool forward) : m_reader(reader), m_forward(forward) {}

    // `highKey`: none on the rightmost page; `firstKey`: none if the page has no entries.
    void startPage(const LeafPage& p, const std::optional<Key>& highKey, const std::optional<Key>& firstKey) {
        // Forward, the left sibling's high key bounds this page's first entry; backward, this
        // page's high key bounds the right sibling's first entry.
        const std::string sibling = " of its " + std::string(m_forward ? "left" : "right") +
                                    " sibling, block " + std::to_string(m_boundaryBlock);
        if (m_forward && m_boundary && firstKey && above(*m_boundary, *firstKey))
            fail(p.block, "its first key " + keyText(*firstKey) + " is below the high key " +
                              keyText(*m_boundary) + sibling);
        if (!m_forward && m_boundary && highKey && above(*highKey, *m_boundary))
            fail(p.block, "its high key " + keyText(*highKey) + " is above the first key " +
                              keyText(*m_boundary) + sibling);
        if (const std::optional<Key>& next = m_forward ? highKey : firstKey; next) {
            m_boundary = next;
            m_boundaryBlock = p.block;
        }
        m_block = p.block;
        m_highKey = highKey;
    }

    void checkItem(std::uint32_t n, const Key& key) const {
        if (m_highKey && above(key, *m_highKey))
            fail(m_block, "item " + std::to_string(n) + "'s key " + keyText(key) +
                              " is above the page's high key " + keyText(*m_highKey));
    }

private:
    [[noreturn]] void fail(std::uint64_t block, const std::string& what) const {
        m_reader.fail(block,
                      what + ": the leaf level's keys are out of order (corrupt sibling links or keys)");
    }

    const BtreeReader& m_reader;
    bool m_forward;
    std::optional<Key> m_boundary; // see startPage()
    std::uint64_t m_boundaryBlock = 0;
    std::optional<Key> m_highKey; // the current page's
    std::uint64_t m_block = 0;    // the current page
};

// One scan's walk of the leaf level: which leaf it starts at, and each leaf page's items in scan
// order, turned into visits (with a key range, only the items inside it, keys checked in order).
class LeafScan {
public:
    LeafScan(const IndexScanSpec& spec, const BtreeReader& reader, IndexVisits& out)
        : m_spec(spec), m_reader(reader), m_out(out), m_visits(out),
          m_forward(spec.direction == Direction::Forward), m_order(reader, m_forward) {}

    // Where the descent goes: forward to the first key >= LO, backward to the last key <= HI; with
    // no range, to the ends of the leaf level.
    bool startIsRightOf(const IndexTuple& separator, std::uint64_t block) const {
        if (!m_spec.range)
            return !m_forward;
        if (separator.pivot && separator.pivotKeys() == 0)
            return true; // minus infinity
        std::string problem;
        const std::optional<std::int64_t> key = leadingKey(separator, *m_spec.range, problem);
        if (!problem.empty())
            m_reader.fail(block, "a separator: " + problem);
        if (!key)
            return false; // NULL sorts after every number
        return m_forward ? *key < m_spec.range->lo : *key <= m_spec.range->hi;
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
                const std::optional<std::int64_t> key = keyOf(tuple, p, n);
                m_order.checkItem(n, key);
                const Place where = place(key);
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
        m_order.startPage(
            p, p.opaque.rightmost() ? std::nullopt : std::optional(keyOf(tupleAt(m_reader, p, 1), p, 1)),
            firstUsed <= count ? std::optional(keyOf(tupleAt(m_reader, p, firstUsed), p, firstUsed))
                               : std::nullopt);
    }

    // The leading key of item `n` as the range's integer type; nothing for NULL, which sorts last.
    Key keyOf(const IndexTuple& tuple, const LeafPage& p, std::uint32_t n) const {
        std::string problem;
        const std::optional<std::int64_t> key = leadingKey(tuple, *m_spec.range, problem);
        if (!problem.empty())
            m_reader.fail(p.block, "item " + std::to_string(n) + ": " + problem);
        return key;
    }

    Place place(const Key& key) const {
        if (!key)
            return m_forward ? Place::After : Place::Before;
        if (*key < m_spec.range->lo)
            return m_forward ? Place::Before : Place::After;
        if (*key > m_spec.range->hi)
            return m_forward ? Place::After : Place::Before;
        return Place::Inside;
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
    KeyOrder m_order;
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

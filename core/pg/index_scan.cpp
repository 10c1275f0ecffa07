// SPDX-License-Identifier: GPL-3.0-or-later
#include "index_scan.h"

#include "btree_reader.h"
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

} // namespace

IndexVisits scanIndex(const IndexScanSpec& spec) {
    const SegmentedRelation index(spec.index, "--pg-index");
    BtreeReader reader(index, spec.checksums);
    IndexVisits out;
    out.facts.indexBlocks = index.blocks();
    out.facts.checksums = reader.checksums();
    VisitBuilder visits(out);
    const bool forward = spec.direction == Direction::Forward;

    // Keys ascend along the leaf level; NULLs sort last (NULLS LAST), outside every range.
    const auto place = [&](const IndexTuple& tuple, const LeafPage& p, std::uint32_t n) {
        if (!spec.range)
            return Place::Inside;
        std::string problem;
        const std::optional<std::int64_t> key = leadingKey(tuple, *spec.range, problem);
        if (!problem.empty())
            reader.fail(p.block, "item " + std::to_string(n) + ": " + problem);
        if (!key)
            return forward ? Place::After : Place::Before;
        if (*key < spec.range->lo)
            return forward ? Place::Before : Place::After;
        if (*key > spec.range->hi)
            return forward ? Place::After : Place::Before;
        return Place::Inside;
    };

    // Where the descent goes: forward to the first key >= LO, backward to the last key <= HI; with
    // no range, to the ends of the leaf level.
    const auto startIsRightOf = [&](const IndexTuple& separator, std::uint64_t block) {
        if (!spec.range)
            return !forward;
        if (separator.pivot && separator.pivotKeys() == 0)
            return true; // minus infinity
        std::string problem;
        const std::optional<std::int64_t> key = leadingKey(separator, *spec.range, problem);
        if (!problem.empty())
            reader.fail(block, "a separator: " + problem);
        if (!key)
            return false; // NULL sorts after every number
        return forward ? *key < spec.range->lo : *key <= spec.range->hi;
    };

    reader.walkLeaves(spec.direction, startIsRightOf, [&](const LeafPage& p) {
        visits.startPage();
        // On every page but the rightmost, item 1 is the high key: a copy of a separator, no TID.
        const std::uint32_t first = p.opaque.rightmost() ? 1 : 2;
        const std::uint32_t count = lineCount(p.header);
        for (std::uint32_t i = 0; first + i <= count; ++i) {
            const std::uint32_t n = forward ? first + i : count - i;
            const LinePointer lp = linePointer(p.page, n);
            if (lp.flags == kLpUnused)
                continue;
            if (lp.flags != kLpNormal && lp.flags != kLpDead)
                reader.fail(p.block,
                            "item " + std::to_string(n) + " is a redirect, which btree pages never hold");
            if (lp.offset < p.header.upper || lp.offset + lp.length > p.header.special)
                reader.fail(p.block, "item " + std::to_string(n) + " (offset " + std::to_string(lp.offset) +
                                         ", " + std::to_string(lp.length) +
                                         " bytes) lies outside the tuple area");
            IndexTuple tuple;
            if (const std::string problem = parseIndexTuple(p.page + lp.offset, lp.length, tuple);
                !problem.empty())
                reader.fail(p.block, "item " + std::to_string(n) + ": " + problem);
            if (tuple.pivot)
                continue;
            const Place where = place(tuple, p, n);
            if (where == Place::After)
                return false; // sorted: nothing further along is in range
            if (where == Place::Before)
                continue;
            if (lp.flags == kLpDead) {
                ++out.facts.deadItems; // killed by an earlier scan: an index scan skips it
                continue;
            }
            if (!tuple.posting) {
                visits.add(tuple.tid.block);
                continue;
            }
            ++out.facts.postingLists;
            for (std::uint32_t k = 0; k < tuple.postingCount; ++k)
                visits.add(tuple.postingTid(forward ? k : tuple.postingCount - 1 - k).block);
        }
        return true;
    });
    if (const std::string changed = index.changes(); !changed.empty())
        throw InputError("--pg-index changed while it was read (" + changed +
                         "): is a server writing it? Stop it or CHECKPOINT and copy the files first");
    visits.finish();
    return out;
}

} // namespace la::pg

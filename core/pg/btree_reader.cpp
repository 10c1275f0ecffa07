// SPDX-License-Identifier: GPL-3.0-or-later
#include "btree_reader.h"

#include "block_size.h"
#include "checksum.h"
#include "index_tuple.h"
#include "input_error.h"

namespace la::pg {

BtreeReader::BtreeReader(const SegmentedRelation& index, ChecksumMode checksums)
    : m_index(index), m_buffer(new std::byte[kBlockSize]) {
    std::byte* page = m_buffer.get();
    m_index.read(0, page);
    const PageHeader header = readPageHeader(page);
    if (isNewPage(header))
        fail(0, isAllZero(page)
                    ? "the metapage is all zeros (an index that was never built, or a zeroed page)"
                    : "the metapage is torn (pd_upper 0, not all zeros)");
    if (const std::string problem = pageHeaderProblem(page); !problem.empty())
        fail(0, problem);
    if (const std::string reason = notBtreeReason(page, header); !reason.empty())
        fail(0, "not a btree index: block 0 is " + reason);
    // With checksums off PostgreSQL leaves pd_checksum 0, and a real checksum is never 0.
    m_checksums = checksums == ChecksumMode::On || (checksums == ChecksumMode::Auto && header.checksum != 0);
    if (m_checksums && pageChecksum(page, 0) != header.checksum)
        fail(0, "checksum mismatch (stored " + std::to_string(header.checksum) + ", computed " +
                    std::to_string(pageChecksum(page, 0)) + ")" +
                    (checksums == ChecksumMode::Auto
                         ? "; if the cluster's checksums were turned off, pass --pg-checksums off"
                         : ""));
    const BtreeMeta meta = readBtreeMeta(page);
    if ((readBtreeOpaque(page, header).flags & kBtpMeta) == 0 || meta.magic != kBtreeMagic)
        fail(0, "not a btree metapage (magic " + std::to_string(meta.magic) + ", expected " +
                    std::to_string(kBtreeMagic) + ")");
    if (meta.version < kBtreeVersion)
        fail(0, "btree version " + std::to_string(meta.version) + " is older than PostgreSQL 13; REINDEX it");
    if (meta.version > kBtreeVersion)
        fail(0, "btree version " + std::to_string(meta.version) + " is newer than this reader knows (4)");
    if (meta.root != kNoBlock && meta.root >= m_index.blocks())
        fail(0, "the root block " + std::to_string(meta.root) + " is past the end of the index (" +
                    std::to_string(m_index.blocks()) + " blocks)");
    m_root = meta.root;
    m_rootLevel = meta.level;
}

void BtreeReader::fail(std::uint64_t block, const std::string& what) const {
    throw InputError("--pg-index " + m_index.where(block) + ": " + what);
}

LeafPage BtreeReader::load(std::uint64_t block, std::uint64_t from) {
    if (block == kNoBlock || block >= m_index.blocks())
        fail(from, "a link leads to block " + std::to_string(block) + ", outside the index's pages 1.." +
                       std::to_string(m_index.blocks() - 1));
    std::byte* page = m_buffer.get();
    m_index.read(block, page);
    if (const std::string problem = btreePageProblem(page, static_cast<std::uint32_t>(block), m_checksums);
        !problem.empty())
        fail(block, problem);
    LeafPage p{page, readPageHeader(page), {}, block};
    p.opaque = readBtreeOpaque(page, p.header);
    return p;
}

IndexTuple BtreeReader::item(const LeafPage& p, std::uint32_t n) {
    const LinePointer lp = linePointer(p.page, n);
    if (lp.flags != kLpNormal || lp.offset < p.header.upper || lp.offset + lp.length > p.header.special)
        fail(p.block, "item " + std::to_string(n) + " is not a normal item within the page");
    IndexTuple tuple;
    if (const std::string problem = parseIndexTuple(p.page + lp.offset, lp.length, tuple); !problem.empty())
        fail(p.block, "item " + std::to_string(n) + ": " + problem);
    return tuple;
}

std::uint32_t BtreeReader::downlink(const LeafPage& p, const StartTest& startIsRightOf, bool& first) {
    // An internal page's first data item is the "minus infinity" downlink; the separators after it
    // ascend, so the start lies under the last one it is right of.
    const std::uint32_t firstData = p.opaque.rightmost() ? 1 : 2;
    const std::uint32_t count = lineCount(p.header);
    if (count < firstData)
        fail(p.block, "an internal page without downlinks");
    IndexTuple chosen = item(p, firstData);
    first = true;
    for (std::uint32_t n = firstData + 1; n <= count; ++n) {
        const IndexTuple separator = item(p, n);
        if (!startIsRightOf(separator, p.block))
            break;
        chosen = separator;
        first = false;
    }
    return chosen.tid.block;
}

LeafPage BtreeReader::loadSibling(const LeafPage& from, std::uint32_t block, bool rightward) {
    const std::uint64_t fromBlock = from.block;
    const std::uint32_t fromLevel = from.opaque.level;
    const bool fromDeleted = from.opaque.deleted();
    LeafPage p = load(block, fromBlock);
    if (p.opaque.level != fromLevel)
        fail(block, "a sibling at level " + std::to_string(p.opaque.level) + " of block " +
                        std::to_string(fromBlock) + " at level " + std::to_string(fromLevel));
    // A deleted page keeps the links it had; every live page's links agree with its neighbours'.
    const std::uint32_t back = rightward ? p.opaque.prev : p.opaque.next;
    if (!fromDeleted && !p.opaque.deleted() && back != fromBlock)
        fail(block, std::string(rightward ? "the left-link" : "the right-link") + " is " +
                        std::to_string(back) + ", but block " + std::to_string(fromBlock) + "'s " +
                        (rightward ? "right-link" : "left-link") + " leads here: the sibling links disagree");
    return p;
}

void BtreeReader::walkLeaves(Direction direction, const StartTest& startIsRightOf,
                             const std::function<bool(const LeafPage&)>& visit) {
    if (m_root == kNoBlock)
        return; // an empty index has no root yet
    const bool forward = direction == Direction::Forward;
    // A loop in corrupt links must end: no level has more pages than the index.
    std::uint64_t steps = 0;
    const auto step = [&](std::uint64_t at) {
        if (++steps > m_index.blocks())
            fail(at, "the sibling links form a cycle");
    };
    LeafPage p = load(m_root, 0);
    // The root is alone on its level (a split root whose new root is not yet made keeps a right
    // sibling, flagged as an incomplete split) at the level the metapage gives.
    if (p.opaque.level != m_rootLevel)
        fail(p.block, "the root the metapage names is at level " + std::to_string(p.opaque.level) +
                          ", but the metapage's btm_level " + std::to_string(m_rootLevel) +
                          " puts the root at that level: the metapage or the root link is corrupt");
    if (p.opaque.prev != kNoBlock ||
        (p.opaque.next != kNoBlock && (p.opaque.flags & kBtpIncompleteSplit) == 0))
        fail(p.block, "the metapage's root has siblings (left-link " + std::to_string(p.opaque.prev) +
                          ", right-link " + std::to_string(p.opaque.next) +
                          "): a root is alone on its level");
    while (true) {
        // Move right past deleted pages, and past pages whose high key the start is right of (a
        // split whose downlink the parent does not have yet leaves such a page, as does a backward
        // start at the end of a level).
        while (!p.opaque.rightmost() && (p.opaque.ignored() || startIsRightOf(item(p, 1), p.block))) {
            step(p.block);
            p = loadSibling(p, p.opaque.next, true);
        }
        if (p.opaque.ignored())
            fail(p.block, "the rightmost page of a level is deleted");
        if (p.opaque.leaf())
            break;
        const std::uint32_t level = p.opaque.level;
        const bool leftmost = p.opaque.prev == kNoBlock;
        bool firstDownlink = false;
        const std::uint32_t child = downlink(p, startIsRightOf, firstDownlink);
        steps = 0;
        p = load(child, p.block);
        if (p.opaque.level + 1 != level)
            fail(child, "a child page at level " + std::to_string(p.opaque.level) + " below a level-" +
                            std::to_string(level) + " page");
        // The first downlink of a level's leftmost page leads to the leftmost page below it.
        if (leftmost && firstDownlink && p.opaque.prev != kNoBlock)
            fail(child, "the first child of the leftmost page of level " + std::to_string(level) +
                            " has a left sibling (left-link " + std::to_string(p.opaque.prev) + ")");
    }
    steps = 0;
    while (true) {
        if (!p.opaque.ignored() && !visit(p))
            return;
        const std::uint32_t next = forward ? p.opaque.next : p.opaque.prev;
        if (next == kNoBlock)
            return;
        step(p.block);
        p = loadSibling(p, next, forward);
    }
}

} // namespace la::pg

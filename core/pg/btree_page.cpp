// SPDX-License-Identifier: GPL-3.0-or-later
#include "btree_page.h"

#include "block_size.h"
#include "checksum.h"
#include "index_tuple.h"
#include "message_text.h"

namespace la::pg {

namespace {

// The last two bytes of hash, GiST and SP-GiST special spaces; a btree's cycle id there never
// reaches 0xFF80 (MAX_BT_CYCLE_ID is 0xFF7F) precisely so that tools can tell them apart.
constexpr std::uint16_t kHashPageId = 0xFF80;
constexpr std::uint16_t kGistPageId = 0xFF81;
constexpr std::uint16_t kSpgistPageId = 0xFF82;
constexpr std::uint16_t kMaxBtreeCycleId = 0xFF7F;
// The last two bytes of a BRIN page's 8-byte special space: its page type (meta, revmap, regular).
constexpr std::uint16_t kBrinMetaPage = 0xF091;
constexpr std::uint16_t kBrinRegularPage = 0xF093;
constexpr std::uint16_t kGinFlagsMax = 0xFF;

} // namespace

BtreeOpaque readBtreeOpaque(const std::byte* page, const PageHeader& header) {
    const std::byte* special = page + header.special;
    BtreeOpaque o;
    o.prev = readU32(special);
    o.next = readU32(special + 4);
    o.level = readU32(special + 8);
    o.flags = readU16(special + 12);
    o.cycleId = readU16(special + 14);
    return o;
}

BtreeMeta readBtreeMeta(const std::byte* page) {
    const std::byte* meta = page + kPageHeaderSize;
    return {readU32(meta), readU32(meta + 4), readU32(meta + 8), readU32(meta + 12)};
}

std::string notBtreeReason(const std::byte* page, const PageHeader& header) {
    const std::uint32_t size = specialSize(header);
    if (size == 0)
        return "a heap (table) page, with no special space: is this the table's file instead of the index's?";
    if (size == kBtreeSpecialSize) {
        const std::uint16_t id = readU16(page + kBlockSize - 2);
        if (id == kHashPageId)
            return "a hash index page";
        if (id == kGistPageId)
            return "a GiST index page";
        if (id == kSpgistPageId)
            return "an SP-GiST index page";
        if (id > kMaxBtreeCycleId)
            return "an index page of another access method (page id " + std::to_string(id) + ")";
        return {};
    }
    if (size == 8) {
        // SP-GiST's special space is 8 bytes, GIN's and BRIN's too: their last two bytes tell them
        // apart (GIN keeps its page flags there, eight bits of them).
        const std::uint16_t id = readU16(page + kBlockSize - 2);
        if (id == kSpgistPageId)
            return "an SP-GiST index page";
        if (id >= kBrinMetaPage && id <= kBrinRegularPage)
            return "a BRIN index page";
        if (id <= kGinFlagsMax)
            return "a GIN index page";
        return "an index page of another access method (8 bytes of special space, page id " +
               std::to_string(id) + ")";
    }
    return "a page with " + std::to_string(size) + " bytes of special space, not a btree's 16";
}

namespace {

// What is wrong with item `n` of a live page as a part of the tree's structure: on a leaf, the high
// key is a separator (pivot tuple) and every other item an entry; on an internal page every item is
// a separator, the first after the high key being the "minus infinity" downlink with no key.
std::string itemRoleProblem(const BtreeOpaque& o, std::uint32_t n, const IndexTuple& t) {
    const std::uint32_t firstData = o.rightmost() ? 1 : 2;
    const bool highKey = n == 1 && !o.rightmost();
    const bool looksHighKey = t.pivot && (o.leaf() || t.pivotKeys() > 0);
    if (n == 1 && o.rightmost() && looksHighKey)
        return "item 1 is a high key, so the page is not the rightmost of its level, yet its right-link "
               "is 0 (P_NONE): the link to its right sibling is lost";
    if (highKey && !looksHighKey)
        return "item 1 is not a high key, yet the page has a right sibling (right-link " +
               std::to_string(o.next) + "): every page but the rightmost of a level starts with one";
    if (o.leaf())
        return t.pivot && !highKey ? "item " + std::to_string(n) + " is a separator among a leaf's entries"
                                   : std::string();
    if (!t.pivot)
        return "item " + std::to_string(n) + " of an internal page is an entry, not a downlink";
    if (n == firstData && t.pivotKeys() != 0)
        return "item " + std::to_string(n) + ", an internal page's first downlink, has a key (it has none)";
    if (n > firstData && t.pivotKeys() == 0)
        return "item " + std::to_string(n) + " of an internal page is a downlink without a key";
    return {};
}

} // namespace

std::string btreePageProblem(const std::byte* page, std::uint32_t block, bool checksums) {
    const PageHeader header = readPageHeader(page);
    if (isNewPage(header))
        return isAllZero(page) ? "a zeroed (new) page where the btree links to a page: torn or zeroed"
                               : "a torn page (pd_upper 0, not all zeros)";
    if (std::string problem = pageHeaderProblem(page); !problem.empty())
        return problem;
    if (checksums)
        if (const std::uint16_t sum = pageChecksum(page, block); sum != header.checksum)
            return "checksum mismatch (stored " + std::to_string(header.checksum) + ", computed " +
                   std::to_string(sum) + ")";
    if (std::string reason = notBtreeReason(page, header); !reason.empty())
        return "not a btree page: " + reason;
    if (lineCount(header) * 4 + kPageHeaderSize != header.lower)
        return "pd_lower " + std::to_string(header.lower) + " does not end a line-pointer array";
    const BtreeOpaque o = readBtreeOpaque(page, header);
    if ((o.flags & kBtpMeta) != 0)
        return "a second metapage (META flag) inside the index";
    if (o.ignored())
        return {}; // deleted and half-dead pages hold no entries: every scan passes over them
    if (o.leaf() != (o.level == 0))
        return o.leaf() ? "a leaf page at level " + std::to_string(o.level) + " (leaves are at level 0)"
                        : std::string("an internal page at level 0 (only leaves are at level 0)");
    const std::uint32_t count = lineCount(header);
    if (!o.rightmost() && count == 0)
        return "no high key, yet the page has a right sibling (right-link " + std::to_string(o.next) + ")";
    for (std::uint32_t n = 1; n <= count; ++n) {
        const LinePointer lp = linePointer(page, n);
        if (lp.flags == kLpUnused && (n > 1 || o.rightmost()))
            continue;
        if (lp.flags != kLpNormal && lp.flags != kLpDead)
            return joined({"item ", std::to_string(n),
                           lp.flags == kLpUnused ? " (the high key) is unused"
                                                 : " is a redirect, which btree pages never hold"});
        if (lp.offset < header.upper || lp.offset + lp.length > header.special)
            return joined({"item ", std::to_string(n), " (offset ", std::to_string(lp.offset), ", ",
                           std::to_string(lp.length), " bytes) lies outside the tuple area"});
        IndexTuple tuple;
        if (std::string problem = parseIndexTuple(page + lp.offset, lp.length, tuple); !problem.empty())
            return joined({"item ", std::to_string(n), ": ", problem});
        if (std::string problem = itemRoleProblem(o, n, tuple); !problem.empty())
            return problem;
    }
    return {};
}

} // namespace la::pg

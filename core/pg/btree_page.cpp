// SPDX-License-Identifier: GPL-3.0-or-later
#include "btree_page.h"

#include "block_size.h"

namespace la::pg {

namespace {

// The last two bytes of hash, GiST and SP-GiST special spaces; a btree's cycle id there never
// reaches 0xFF80 (MAX_BT_CYCLE_ID is 0xFF7F) precisely so that tools can tell them apart.
constexpr std::uint16_t kHashPageId = 0xFF80;
constexpr std::uint16_t kGistPageId = 0xFF81;
constexpr std::uint16_t kSpgistPageId = 0xFF82;
constexpr std::uint16_t kMaxBtreeCycleId = 0xFF7F;

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
    return {readU32(meta), readU32(meta + 4), readU32(meta + 8)};
}

std::uint32_t lineCount(const PageHeader& header) {
    return (header.lower - kPageHeaderSize) / 4;
}

LinePointer linePointer(const std::byte* page, std::uint32_t n) {
    const std::uint32_t word = readU32(page + kPageHeaderSize + 4 * (n - 1));
    return {word & 0x7FFFu, (word >> 15) & 0x3u, word >> 17};
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
    if (size == 8)
        return "a GIN or BRIN index page (8 bytes of special space)";
    return "a page with " + std::to_string(size) + " bytes of special space, not a btree's 16";
}

} // namespace la::pg

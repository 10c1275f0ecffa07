// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "page_header.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace la::pg {

// The parts of PostgreSQL's btree page format that an index scan needs (docs/pg-relations.md §2).

inline constexpr std::uint32_t kBtreeMagic = 0x053162;
inline constexpr std::uint32_t kBtreeVersion = 4; // PostgreSQL 13 and later (deduplication)
inline constexpr std::uint32_t kBtreeSpecialSize = 16;
inline constexpr std::uint32_t kNoBlock = 0; // a btree link to block 0 (the metapage) means "none"

inline constexpr std::uint16_t kBtpLeaf = 1 << 0;
inline constexpr std::uint16_t kBtpDeleted = 1 << 2;
inline constexpr std::uint16_t kBtpMeta = 1 << 3;
inline constexpr std::uint16_t kBtpHalfDead = 1 << 4;
inline constexpr std::uint16_t kBtpIncompleteSplit = 1 << 7; // its right sibling has no downlink yet

// The btree's special space at the end of every page.
struct BtreeOpaque {
    std::uint32_t prev = 0;
    std::uint32_t next = 0;
    std::uint32_t level = 0;
    std::uint16_t flags = 0;
    std::uint16_t cycleId = 0;

    bool leaf() const { return (flags & kBtpLeaf) != 0; }
    bool deleted() const { return (flags & kBtpDeleted) != 0; }
    bool rightmost() const { return next == kNoBlock; }
    // Deleted and half-dead pages are skipped by every scan.
    bool ignored() const { return (flags & (kBtpDeleted | kBtpHalfDead)) != 0; }
};

struct BtreeMeta {
    std::uint32_t magic = 0;
    std::uint32_t version = 0;
    std::uint32_t root = 0;
    std::uint32_t level = 0; // btm_level: the root's level, 0 when the root is the only leaf
};

BtreeOpaque readBtreeOpaque(const std::byte* page, const PageHeader& header);
BtreeMeta readBtreeMeta(const std::byte* page);

// Why a page with this header is not a btree page ("a heap (table) page", "a hash index page"),
// from the size of its special space and the page id some access methods put at its end; empty
// if it has a btree's 16-byte special space.
std::string notBtreeReason(const std::byte* page, const PageHeader& header);

// What is wrong with one btree page other than the metapage, judged from its 8192 bytes alone, or
// empty (docs/pg-relations.md §2.4): a zeroed or torn page, a bad header, a checksum mismatch (if
// `checksums`; `block` is its relation block), a special space that is not a btree's, a leaf flag
// that disagrees with the level, or items that do not fit the page or do not parse. For a live
// page also the high key against the right-link: every page but the rightmost of its level starts
// with a high key, and the rightmost (right-link 0) has none. Safe on arbitrary bytes.
std::string btreePageProblem(const std::byte* page, std::uint32_t block, bool checksums);

} // namespace la::pg

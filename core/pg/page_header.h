// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace la::pg {

// The 24-byte header every PostgreSQL page starts with (docs/pg-relations.md §1), read field by
// field from the page's bytes, which are little-endian on every platform Lookahead runs on.
struct PageHeader {
    std::uint16_t checksum = 0;
    std::uint16_t flags = 0;
    std::uint16_t lower = 0;   // end of the line-pointer array
    std::uint16_t upper = 0;   // start of the tuple data; 0 on a new (never initialised) page
    std::uint16_t special = 0; // start of the access method's special space
    std::uint16_t sizeVersion = 0;
};

inline constexpr std::uint32_t kPageHeaderSize = 24;
inline constexpr std::uint16_t kLayoutVersion = 4; // PostgreSQL 8.3 and later
inline constexpr std::uint16_t kValidFlagBits = 0x0007;

inline std::uint16_t readU16(const std::byte* at) {
    std::uint16_t value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

inline std::uint32_t readU32(const std::byte* at) {
    std::uint32_t value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

PageHeader readPageHeader(const std::byte* page);

// A new page: pd_upper is 0. PostgreSQL accepts one only if every byte is zero.
bool isNewPage(const PageHeader& header);
bool isAllZero(const std::byte* page);

// What is wrong with the header, or empty: a new page that is not all zeros (torn or overwritten),
// a page size or layout version other than 8192/4, flags PostgreSQL never sets, or pd_lower,
// pd_upper and pd_special out of order or past the page.
std::string pageHeaderProblem(const std::byte* page);

// Line pointer states.
inline constexpr std::uint32_t kLpUnused = 0, kLpNormal = 1, kLpRedirect = 2, kLpDead = 3;

struct LinePointer {
    std::uint32_t offset = 0;
    std::uint32_t flags = 0;
    std::uint32_t length = 0;
};

// Line pointers on the page (pd_lower's worth). Inline: every item of every page is read by it.
inline std::uint32_t lineCount(const PageHeader& header) {
    return (header.lower - kPageHeaderSize) / 4;
}

// Line pointer `n`, counting from 1 as PostgreSQL's offset numbers do.
inline LinePointer linePointer(const std::byte* page, std::uint32_t n) {
    const std::uint32_t word = readU32(page + kPageHeaderSize + 4 * (n - 1));
    return {word & 0x7FFFu, (word >> 15) & 0x3u, word >> 17};
}

// Bytes of special space the page declares (0 for a heap page).
std::uint32_t specialSize(const PageHeader& header);

// "'FILE' block B (offset O)": how every message about one page names it.
std::string pageWhere(const std::string& file, std::uint64_t blockInFile, std::uint64_t relationBlock);

} // namespace la::pg

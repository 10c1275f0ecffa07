// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_header.h"

#include "block_size.h"

namespace la::pg {

PageHeader readPageHeader(const std::byte* page) {
    // pd_lsn (8 bytes) comes first; pd_prune_xid (4 bytes) last.
    PageHeader h;
    h.checksum = readU16(page + 8);
    h.flags = readU16(page + 10);
    h.lower = readU16(page + 12);
    h.upper = readU16(page + 14);
    h.special = readU16(page + 16);
    h.sizeVersion = readU16(page + 18);
    return h;
}

bool isNewPage(const PageHeader& header) {
    return header.upper == 0;
}

bool isAllZero(const std::byte* page) {
    std::uint64_t any = 0;
    for (std::size_t at = 0; at < kBlockSize; at += sizeof any) {
        std::uint64_t word;
        std::memcpy(&word, page + at, sizeof word);
        any |= word;
    }
    return any == 0;
}

std::string pageHeaderProblem(const std::byte* page) {
    const PageHeader h = readPageHeader(page);
    if (isNewPage(h))
        return isAllZero(page) ? std::string()
                               : "a new page (pd_upper 0) that is not all zeros: torn or overwritten";
    const std::uint32_t size = h.sizeVersion & 0xFF00u;
    const std::uint32_t version = h.sizeVersion & 0x00FFu;
    if (size != kBlockSize || version != kLayoutVersion)
        return "page size " + std::to_string(size) + " layout version " + std::to_string(version) +
               " (expected 8192 and 4): not a PostgreSQL page, or a torn one";
    if ((h.flags & ~kValidFlagBits) != 0)
        return "pd_flags " + std::to_string(h.flags) + " has bits PostgreSQL never sets";
    if (h.lower < kPageHeaderSize || h.lower > h.upper || h.upper > h.special || h.special > kBlockSize ||
        h.special % 8 != 0)
        return "pd_lower " + std::to_string(h.lower) + ", pd_upper " + std::to_string(h.upper) +
               ", pd_special " + std::to_string(h.special) + " are not in order within the 8192-byte page";
    return {};
}

std::uint32_t specialSize(const PageHeader& header) {
    return kBlockSize - header.special;
}

std::string pageWhere(const std::string& file, std::uint64_t blockInFile, std::uint64_t relationBlock) {
    std::string text = "'";
    text.append(file).append("' block ").append(std::to_string(blockInFile));
    if (relationBlock != blockInFile)
        text.append(" (relation block ").append(std::to_string(relationBlock)).append(")");
    text.append(" at offset ").append(std::to_string(blockInFile * kBlockSize));
    return text;
}

} // namespace la::pg

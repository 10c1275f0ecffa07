// SPDX-License-Identifier: GPL-3.0-or-later
#include "heap_page.h"

#include "checksum.h"
#include "page_header.h"

namespace la::pg {

namespace {

// What is wrong with the page's line pointers, or empty: each normal one (and each dead one that
// keeps its tuple) must point into the tuple area, each redirect at another line pointer.
std::string linePointerProblem(const std::byte* page, const PageHeader& header) {
    if ((header.lower - kPageHeaderSize) % 4 != 0)
        return "pd_lower " + std::to_string(header.lower) + " does not end a line-pointer array";
    const std::uint32_t count = lineCount(header);
    if (count > kMaxHeapTuplesPerPage)
        return std::to_string(count) + " line pointers, more than a heap page holds (" +
               std::to_string(kMaxHeapTuplesPerPage) + ")";
    for (std::uint32_t n = 1; n <= count; ++n) {
        const LinePointer lp = linePointer(page, n);
        const bool stored = lp.flags == kLpNormal || (lp.flags == kLpDead && lp.length > 0);
        if (stored && (lp.offset < header.upper || lp.offset + lp.length > header.special || lp.length == 0))
            return "line pointer " + std::to_string(n) + " (offset " + std::to_string(lp.offset) + ", " +
                   std::to_string(lp.length) + " bytes) lies outside the tuple area";
        if (lp.flags == kLpRedirect && (lp.offset == 0 || lp.offset > count || lp.length != 0))
            return "line pointer " + std::to_string(n) + " redirects to line pointer " +
                   std::to_string(lp.offset) + ", which the page does not have";
    }
    return {};
}

} // namespace

std::string heapPageProblem(const std::byte* page, std::uint32_t block, bool checksums) {
    if (std::string problem = pageHeaderProblem(page); !problem.empty())
        return problem;
    const PageHeader header = readPageHeader(page);
    if (isNewPage(header))
        return {};
    if (specialSize(header) != 0)
        return "not a heap page: it has " + std::to_string(specialSize(header)) +
               " bytes of special space (an index page?)";
    if (checksums)
        if (const std::uint16_t sum = pageChecksum(page, block); sum != header.checksum)
            return "checksum mismatch (stored " + std::to_string(header.checksum) + ", computed " +
                   std::to_string(sum) + ")";
    return linePointerProblem(page, header);
}

} // namespace la::pg

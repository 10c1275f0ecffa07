// SPDX-License-Identifier: GPL-3.0-or-later
#include "heap_page.h"

#include "checksum.h"
#include "page_header.h"

namespace la::pg {

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
    return {};
}

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: one heap page as the --pg-heap scan checks each page it reads
// (core/pg/heap_page.h heapPageProblem: header, special space, data checksum).
#include "fuzz_pages.h"
#include "pg/heap_page.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string page = la::fuzz::wholePages(data, size, 1);
    const auto* bytes = reinterpret_cast<const std::byte*>(page.data());
    (void)la::pg::heapPageProblem(bytes, 0, true);
    (void)la::pg::heapPageProblem(bytes, 131072, true);
    (void)la::pg::heapPageProblem(bytes, 0, false);
    return 0;
}

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The page targets' input: whole 8 kB pages, as a relation's file holds them.

#include "block_size.h"
#include "fuzz_input.h"

#include <algorithm>
#include <string>

namespace la::fuzz {

// The input as at most `maxPages` pages: a partial last page is completed with zeros, so that a
// mutation that inserts or removes a byte still reaches the page parsers instead of the file-size check.
inline std::string wholePages(const std::uint8_t* data, std::size_t size, std::size_t maxPages) {
    std::string pages(bytesAsText(data, std::min<std::size_t>(size, maxPages * kBlockSize)));
    const std::size_t count = std::max<std::size_t>(1, (pages.size() + kBlockSize - 1) / kBlockSize);
    pages.resize(count * kBlockSize, '\0');
    return pages;
}

} // namespace la::fuzz

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace la {

// One read the stream issued: when, at which consumer position, and which blocks it covered.
struct ReadRecord {
    std::int64_t startNs = 0;
    std::uint32_t position = 0; // buffers handed out when it was issued
    std::uint32_t block = 0;    // lowest block
    std::uint8_t nblocks = 0;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace la {

// PostgreSQL's BLCKSZ: every relation is a sequence of 8 kB blocks.
inline constexpr std::uint32_t kBlockSize = 8192;

} // namespace la

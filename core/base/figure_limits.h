// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace la {

// The ranges a figure must lie in to be a measurement of anything: those read from a file (a session,
// EXPLAIN output) are refused outside them, and a simulated run stops at them. Inside them the
// arithmetic done on the figures cannot overflow.

// A run's time, and any time in it: 2^60 ns (36 years) is beyond any run, and the sum of two such
// times still fits an int64.
inline constexpr std::int64_t kMaxRunTimeNs = std::int64_t{1} << 60;
// A count of blocks, reads or waits: 2^53 is more than the reads of a 32 TB relation scanned two
// million times over, and the largest whole number a JSON number holds exactly.
inline constexpr std::uint64_t kMaxFigureCount = std::uint64_t{1} << 53;

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace la {

// What the shared x axis shows: (virtual or real) seconds since the run started, or the consumer's
// position (buffers handed out so far).
enum class XAxis : std::uint8_t { Time, Position };

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace la {

// Which way a scan walks its blocks (or an index its keys).
enum class Direction : std::uint8_t { Forward, Backward };

// "forward", "backward": --direction's values and the summary's.
const char* directionName(Direction direction);
std::optional<Direction> directionNamed(std::string_view name);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace la {

// Of `names`, the one `typed` most likely meant: the fewest one-character edits (insert, delete,
// replace, swap two neighbours) away, and at most a third of its length; empty when none is that
// near. "querry" → "query".
std::string nearestName(std::string_view typed, const std::vector<std::string>& names);

} // namespace la

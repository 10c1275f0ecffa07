// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace la::pg {

// --pg-checksums: verify data checksums (on), never (off), or as the index's metapage shows
// (auto, docs/pg-relations.md §4).
enum class ChecksumMode { Auto, On, Off };

ChecksumMode checksumModeNamed(const std::string& name); // "" = auto

} // namespace la::pg

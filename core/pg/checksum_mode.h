// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace la::pg {

// --pg-checksums: verify data checksums (on), never (off), or as the index's metapage shows
// (auto, docs/pg-relations.md §4).
enum class ChecksumMode { Auto, On, Off };

// "auto", "on", "off"; anything else (the option's default, "") is auto.
ChecksumMode checksumModeNamed(const std::string& name);

} // namespace la::pg

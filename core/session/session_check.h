// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace la {

// Reads every part of the session at `path` that opening it for the views reads: its runs, their
// summaries, their stored events and their imported traces, each checked before use. Throws
// InputError on the first fault; returns the number of events read. The fuzz target over mutated
// session files calls it, so it must never crash, hang or allocate beyond the file's size.
std::uint64_t readWholeSession(const std::string& path);

} // namespace la

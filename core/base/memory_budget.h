// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace la {

// The memory this process may use: the machine's RAM, lowered by an address-space or data
// rlimit and by the cgroup's memory.max where those are set.
std::uint64_t memoryLimitBytes();

// Refuses (InputError) an allocation of `bytes` for `what` that would take more than half of
// memoryLimitBytes(): better a message that says what is needed than std::bad_alloc, or the OOM
// killer, half-way through a run. `advice` says what to do instead.
void requireMemory(std::uint64_t bytes, const std::string& what, const std::string& advice);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "stop_request.h"

namespace la {

namespace {
// Constant-initialized: safe to touch from a signal handler before anything else ran.
std::atomic<bool> g_stopRequested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler may only touch lock-free atomics");
} // namespace

std::atomic<bool>& stopRequested() noexcept {
    return g_stopRequested;
}

} // namespace la

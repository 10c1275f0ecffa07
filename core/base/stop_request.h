// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cerrno>

namespace la {

// The user asked the process to stop (the front end's SIGINT/SIGTERM handler sets it; lock-free, so
// a handler may). A loop that retries a system call after EINTR and may block without bound (a pipe
// or FIFO the user named, a stalled reader of our output) gives up once it is set, so the first
// signal ends the run instead of being swallowed by the retry.
std::atomic<bool>& stopRequested() noexcept;

// Whether a call that failed with `error` should be tried again: EINTR, unless a stop was asked for.
inline bool retryAfter(int error) noexcept {
    return error == EINTR && !stopRequested().load(std::memory_order_relaxed);
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Debian's Qt is not built with ThreadSanitizer, so TSan cannot see the happens-before edge that
// QThread::wait() gives (Qt's futexes live in libQt6Core). The worker releases its job just before it
// returns and the GUI thread acquires it right after wait(); both are no-ops in other builds.
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define LA_TSAN_RELEASE(p) __tsan_release(const_cast<void*>(static_cast<const void*>(p)))
#define LA_TSAN_ACQUIRE(p) __tsan_acquire(const_cast<void*>(static_cast<const void*>(p)))
#else
#define LA_TSAN_RELEASE(p)                                                                                   \
    do {                                                                                                     \
    } while (0)
#define LA_TSAN_ACQUIRE(p)                                                                                   \
    do {                                                                                                     \
    } while (0)
#endif

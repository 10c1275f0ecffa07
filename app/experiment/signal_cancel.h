// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>

namespace la {

// SIGINT and SIGTERM go to the run's cancel path instead of killing the process mid-write: the run
// stops, the partial results are written whole (marked cancelled) and the process exits 128 + the
// signal's number. A second signal kills at once, as the user then clearly wants. The signal goes to
// the main thread without SA_RESTART, so a call blocked there returns EINTR. SIGXFSZ is
// ignored, so a write over the file size limit fails with EFBIG and is reported like any other.
class SignalCancel {
public:
    static void install();
    // Set by the first SIGINT or SIGTERM; a RunCallbacks::cancel.
    static const std::atomic<bool>& requested();
    // 0 until a signal came, then 128 + its number (130 for SIGINT, 143 for SIGTERM).
    static int exitCode();
    // A command's exit code: `otherwise`, unless a signal came.
    static int exitCodeOr(int otherwise) { return exitCode() != 0 ? exitCode() : otherwise; }
    // Readable once a signal came: an event loop watches it (QSocketNotifier).
    static int notifyFd();
};

} // namespace la

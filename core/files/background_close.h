// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "unique_fd.h"

namespace la {

// Closes `fd` on a thread kept for that, for a descriptor whose close may take long: the last close
// of an unnamed temporary file frees its blocks, and a file system mounted with `discard` waits for
// the device to discard them (hundreds of milliseconds for a run's spill file; the window's event
// loop stood still for that long). Nothing waits for it; a close error is of no use to anyone here.
// Until enableBackgroundClose() it closes at once: only the window needs it (its event loop must
// not stand still), and a program that never starts the thread stays single-threaded where it was
// (a process that forks, such as a test under ThreadSanitizer, may not start threads after a fork
// of a multi-threaded process).
void closeInBackground(UniqueFd fd);

// From now on, closeInBackground() hands its descriptors to the closing thread.
void enableBackgroundClose();

} // namespace la

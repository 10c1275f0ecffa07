// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "unique_fd.h"

namespace la {

// Closes `fd` on a thread kept for that, for a descriptor whose close may take long: the last close
// of an unnamed temporary file frees its blocks, and a file system mounted with `discard` waits for
// the device to discard them (hundreds of milliseconds for a run's spill file; the window's event
// loop stood still for that long). Nothing waits for it; a close error is of no use to anyone here.
void closeInBackground(UniqueFd fd);

} // namespace la

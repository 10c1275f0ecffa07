// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace la {

// Lowers the calling thread's scheduling priority (its nice value; on Linux each thread has its
// own), so that a thread the user watches, the window's, gets the CPU first whenever it wants it.
// For threads whose speed nobody measures: binning the views, a simulated run. Never for a thread
// doing timed real I/O, whose run time a niced thread would inflate beside any other load.
// Best effort: a thread that cannot be lowered keeps its priority.
void yieldCpuToInteractiveThreads();

} // namespace la

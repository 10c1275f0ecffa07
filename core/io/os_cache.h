// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace la {

// The kernel's page cache for one file: a cold run must start with the file's pages evicted,
// or buffered reads would be served from memory and the plot would show no I/O at all.

// Asks the kernel to drop the file's cached pages (posix_fadvise DONTNEED). Dirty pages cannot be
// dropped until written back, so they are flushed first (fdatasync on a read-only descriptor: the
// contents are not ours to change, and do not change). Pages another process dirties meanwhile stay,
// which is why residentFraction() checks the result. Throws IoError naming the file.
void evictFromOsCache(const std::string& path);

// Fraction of the file's pages in the page cache (mincore over a read-only mapping), 0..1.
double residentFraction(const std::string& path);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session_file.h"

#include <string>

namespace la {

// Where and how a run was made, as name/value pairs (docs/session-format.md lists them): Lookahead's
// version, the kernel, the CPU model, the date (UTC), the command line, io_uring availability and
// whether O_DIRECT was used; for a run that read a real file, that file, its filesystem type and its
// block device (model, rotational, scheduler, nr_requests from sysfs). Facts that cannot be found
// are left out rather than guessed.
NameValues collectProvenance(const std::string& commandLine, const std::string& scannedFile, bool directIo);

} // namespace la

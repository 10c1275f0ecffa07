// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace la {

// The whole of the small document (JSON) `path` (`what` names it in messages: "sweep spec"). Refuses
// what is not a regular file (files/input_file.h: a FIFO, a device such as /dev/zero), and a file of
// more than `cap` bytes, reading at most cap + 1. Throws InputError: what, the file, what is wrong,
// then `advice`.
std::string readDocumentFile(const std::string& path, const std::string& what, std::uint64_t cap,
                             const std::string& advice);

} // namespace la

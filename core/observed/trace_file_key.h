// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the trace importer's two passes tell the files of a trace apart and name them.

#include "trace_line.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace la {

// The group a read belongs to (§4 of docs/trace-import.md): its relation's path, or its fd and
// process when the trace gives no path.
class FileKey {
public:
    // The view is valid until the next call.
    std::string_view of(const TraceLine& line);

private:
    std::string m_buffer;
};

std::uint64_t hashOf(std::string_view key);

// How a file is shown and chosen again: its relation's path, or "fd N of process P".
std::string displayName(const TraceLine& line, std::string_view key);

// A path or file name in a message: quoted, and cut if it is long.
std::string quotedName(const std::string& path);

// Which reads belong to the relation: descriptor N in every process, or one file's key.
struct Selection {
    bool byFd = false;
    std::int64_t fd = -1;
    std::uint64_t hash = 0;
};

} // namespace la

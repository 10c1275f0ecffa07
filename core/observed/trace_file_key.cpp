// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_file_key.h"

#include "io/segment_path.h"
#include "message_text.h"

#include <functional>

namespace la {

std::string_view FileKey::of(const TraceLine& line) {
    if (!line.path.empty())
        return splitSegment(line.path).relation;
    // Built by appending: `"literal" + std::string` trips GCC 12's -Wrestrict false positive at
    // -O3 (GCC bug 105329). \x01 keeps these keys apart from paths.
    m_buffer.assign(1, '\x01')
        .append(std::to_string(line.fd))
        .append(1, '@')
        .append(std::to_string(line.pid));
    return m_buffer;
}

std::uint64_t hashOf(std::string_view key) {
    return std::hash<std::string_view>{}(key);
}

std::string displayName(const TraceLine& line, std::string_view key) {
    if (!line.path.empty())
        return std::string(key);
    return "fd " + std::to_string(line.fd) + " of process " + std::to_string(line.pid);
}

std::string quotedName(const std::string& path) {
    // Appended, not "'" + …: GCC 12 at -O3 warns (-Wrestrict) about the inlined insert at the front.
    std::string text(1, '\'');
    text += excerpt(path);
    text += '\'';
    return text;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "segment_path.h"

#include "text_cursor.h"

namespace la {

SegmentedPath splitSegment(std::string_view path) {
    const std::size_t slash = path.rfind('/');
    const std::size_t nameStart = slash == std::string_view::npos ? 0 : slash + 1;
    const std::size_t dot = path.rfind('.');
    if (dot == std::string_view::npos || dot <= nameStart || path[nameStart] < '0' || path[nameStart] > '9')
        return {path, 0};
    TextCursor c(path.substr(dot + 1));
    std::uint64_t segment = 0;
    if (!c.readUnsigned(segment) || !c.atEnd() || segment > UINT32_MAX)
        return {path, 0};
    return {path.substr(0, dot), static_cast<std::uint32_t>(segment)};
}

} // namespace la

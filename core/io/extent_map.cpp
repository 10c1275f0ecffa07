// SPDX-License-Identifier: GPL-3.0-or-later
#include "extent_map.h"

#include "checked_math.h"

#include <algorithm>

namespace la {

bool ExtentMap::add(std::uint32_t device, std::uint32_t file, const std::vector<FileExtent>& extents) {
    for (const FileExtent& e : extents) {
        std::uint64_t end = 0;
        if (!checkedAdd(e.physical, e.length, end) || !checkedAdd(e.logical, e.length, end))
            return false;
    }
    for (const FileExtent& e : extents)
        if (e.length > 0)
            m_extents.push_back({device, file, e});
    std::sort(m_extents.begin(), m_extents.end(), [](const Entry& a, const Entry& b) {
        return a.device != b.device ? a.device < b.device : a.extent.physical < b.extent.physical;
    });
    m_reach.resize(m_extents.size());
    for (std::size_t i = 0; i < m_extents.size(); ++i) {
        const std::uint64_t end = m_extents[i].extent.physical + m_extents[i].extent.length; // checked above
        const bool sameDevice = i > 0 && m_extents[i - 1].device == m_extents[i].device;
        m_reach[i] = sameDevice ? std::max(m_reach[i - 1], end) : end;
    }
    return true;
}

std::vector<MappedPiece> ExtentMap::map(std::uint32_t device, std::uint64_t start,
                                        std::uint64_t bytes) const {
    std::vector<MappedPiece> pieces;
    std::uint64_t end = 0;
    if (bytes == 0 || !checkedAdd(start, bytes, end))
        return pieces;
    // The first entry of `device` whose reach passes `start`: every earlier one ends at or before it.
    const auto first = std::lower_bound(m_extents.begin(), m_extents.end(), device,
                                        [](const Entry& e, std::uint32_t d) { return e.device < d; });
    auto at = static_cast<std::size_t>(first - m_extents.begin());
    const auto last = static_cast<std::size_t>(
        std::upper_bound(first, m_extents.end(), device,
                         [](std::uint32_t d, const Entry& e) { return d < e.device; }) -
        m_extents.begin());
    at = static_cast<std::size_t>(std::partition_point(m_reach.begin() + static_cast<std::ptrdiff_t>(at),
                                                       m_reach.begin() + static_cast<std::ptrdiff_t>(last),
                                                       [&](std::uint64_t reach) { return reach <= start; }) -
                                  m_reach.begin());
    for (; at < last && m_extents[at].extent.physical < end; ++at) {
        const FileExtent& e = m_extents[at].extent;
        const std::uint64_t from = std::max(start, e.physical);
        const std::uint64_t to = std::min(end, e.physical + e.length);
        if (from >= to)
            continue;
        pieces.push_back({m_extents[at].file, e.logical + (from - e.physical), to - from});
    }
    return pieces;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "collapse_detector.h"

namespace la {

std::optional<CollapseInterval> CollapseDetector::current() const {
    if (m_misses > 0 && m_misses >= m_window)
        return CollapseInterval{m_first, m_last};
    return std::nullopt;
}

void CollapseDetector::close() {
    if (const auto interval = current())
        m_intervals.push_back(*interval);
    m_misses = 0;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "collapse_detector.h"

namespace la {

namespace {
// Misses further apart than this are not "misses that keep coming" (below 1% of blocks).
constexpr std::uint64_t kMaxMissGap = 100;
} // namespace

void CollapseDetector::update(const Event& event) {
    if (event.distance > 2) {
        close();
        return;
    }
    // After the end of the stream (distance 0) nothing is being decided, so those buffers neither
    // extend nor break a collapse.
    if (event.distance == 0 || !(event.flags & event_flag::miss))
        return;
    if (m_misses > 0 && event.position - m_last > kMaxMissGap)
        close();
    if (m_misses == 0)
        m_first = event.position;
    m_last = event.position;
    ++m_misses;
}

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

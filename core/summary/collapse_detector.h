// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace la {

// Consumer positions [first, last] (inclusive) where the read-ahead distance collapsed.
using CollapseInterval = std::pair<std::uint64_t, std::uint64_t>;

// Finds collapses in the Consumed events of a run: misses keep coming (at least `window` of them, none
// further apart than 100 positions) while the distance never gets above 2. The run summary and the
// live plots both use it, so the shading and the numbers agree at every moment of a run.
class CollapseDetector {
public:
    explicit CollapseDetector(int window = 32) : m_window(static_cast<std::uint64_t>(window)) {}

    // Consumed events, in order. Inline: the summary calls it on every buffer, and in a collapsed
    // stream (a distance of 2 or less) every buffer gets past the first test.
    void onConsumed(const Event& event) {
        if (event.distance > 2) {
            if (m_misses > 0)
                close();
            return;
        }
        // After the end of the stream (distance 0) nothing is being decided, so those buffers
        // neither extend nor break a collapse.
        if (event.distance == 0 || !(event.flags & event_flag::miss))
            return;
        if (m_misses > 0 && event.position - m_last > kMaxMissGap)
            close();
        if (m_misses == 0)
            m_first = event.position;
        m_last = event.position;
        ++m_misses;
    }
    // The run ended: a collapse still going counts.
    void finish() { close(); }

    const std::vector<CollapseInterval>& intervals() const { return m_intervals; }
    // The collapse still going, once it has enough misses to count (shown live before it ends).
    std::optional<CollapseInterval> current() const;

private:
    // Misses further apart than this are not "misses that keep coming" (below 1% of blocks).
    static constexpr std::uint64_t kMaxMissGap = 100;

    void close();

    std::uint64_t m_window;
    std::vector<CollapseInterval> m_intervals;
    std::uint64_t m_misses = 0; // misses of the candidate so far
    std::uint64_t m_first = 0, m_last = 0;
};

} // namespace la

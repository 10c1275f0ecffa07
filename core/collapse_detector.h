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

    // Consumed events, in order. Inline for the common case of a healthy stream (a distance above
    // 2 and no candidate to close), which the summary meets on almost every buffer.
    void onConsumed(const Event& event) {
        if (event.distance > 2 && m_misses == 0)
            return;
        update(event);
    }
    // The run ended: a collapse still going counts.
    void finish() { close(); }

    const std::vector<CollapseInterval>& intervals() const { return m_intervals; }
    // The collapse still going, once it has enough misses to count (shown live before it ends).
    std::optional<CollapseInterval> current() const;

private:
    void update(const Event& event);
    void close();

    std::uint64_t m_window;
    std::vector<CollapseInterval> m_intervals;
    std::uint64_t m_misses = 0; // misses of the candidate so far
    std::uint64_t m_first = 0, m_last = 0;
};

} // namespace la

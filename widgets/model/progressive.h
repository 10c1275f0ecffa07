// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <utility>

namespace la {

// What every progressive reduction of a run (the rasters, the I/O size columns, the state series)
// keeps between update() calls: the key it bins for, where binning goes on, and whether its output
// changed since the view last took it. Each update() does at most a budget of work, so a 10 M-block
// run never stalls the event loop, and a live run only bins what is new.
template <typename Key, typename Cursor> class Progressive {
public:
    const Key& key() const { return m_key; }
    // Whether the output changed since the last call (the view re-draws only then).
    bool takeChanged() { return std::exchange(m_changed, false); }
    // How much of what the key asks for is binned, 0..1 (1 once all is), as of the last update().
    double progress() const {
        if (m_end <= m_first || m_cursor >= m_end)
            return 1.0;
        return static_cast<double>(m_cursor - m_first) / static_cast<double>(m_end - m_first);
    }
    // Binning started over for a key that is not the last one widened (a zoom, a reset of the zoom)
    // and is not complete: a view may keep showing what it drew for the last key until it is.
    bool redrawing() const { return m_redrawing && progress() < 1.0; }

protected:
    // True when `key` is not the one binned so far (or nothing is binned yet): binning starts over
    // at `first`, and the caller clears its output for the new key.
    bool startOver(const Key& key, Cursor first) {
        if (m_started && key == m_key)
            return false;
        m_key = key;
        m_cursor = first;
        m_first = first;
        m_redrawing = m_started;
        m_started = true;
        m_changed = true;
        return true;
    }
    // Where the units the key asks for end (it grows with a live run), for progress().
    void binsUntil(Cursor end) { m_end = end; }
    // True when binning so far is for a key that `key` only widens (a live axis doubling): the key is
    // taken and binning goes on from the cursor; `fold` (given the key's fold counts) keeps the output.
    template <typename Fold> bool widen(const Key& key, Fold fold) {
        if (!m_started || key == m_key || !fold(m_key, key))
            return false;
        m_key = key;
        m_changed = true;
        return true;
    }
    void markChanged() { m_changed = true; }

    Cursor m_cursor{}; // the next unit to bin

private:
    Key m_key;
    bool m_started = false;
    bool m_changed = false;
    bool m_redrawing = false;
    Cursor m_first{};
    Cursor m_end{};
};

} // namespace la

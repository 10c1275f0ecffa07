// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"

#include <cstddef>
#include <vector>

namespace la {

// Collects events into fixed-size batches and hands each full batch to every sink, so a live view
// gets a steady trickle and the engine pays one virtual call per few hundred events. Batches are
// small enough (16 kB) to stay in L1 between the stream writing them and the sinks reading them.
class Tracer {
public:
    explicit Tracer(std::size_t batchSize = 512) : m_batch(batchSize) {}

    void addSink(EventSink* sink) { m_sinks.push_back(sink); }

    // The next event slot, filled in place; commit() publishes it.
    Event& next() { return m_batch[m_size]; }
    void commit() {
        if (++m_size == m_batch.size())
            flush();
    }

    void flush() {
        if (m_size == 0)
            return;
        const std::span<const Event> batch(m_batch.data(), m_size);
        for (EventSink* sink : m_sinks)
            sink->onEvents(batch);
        m_size = 0;
    }

private:
    std::vector<Event> m_batch;
    std::size_t m_size = 0;
    std::vector<EventSink*> m_sinks;
};

} // namespace la

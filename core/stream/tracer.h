// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"

#include <cstddef>
#include <vector>

namespace la {

// Collects events into fixed-size batches and hands each full batch to every sink, so a live view
// gets a steady trickle and the engine pays one virtual call per hundred-odd events. A batch (4 kB)
// stays in L1 between the stream writing it and the sinks reading it, beside the pool's and the
// dataset's own working set (16 kB batches were evicted before the sinks read them back).
class Tracer {
public:
    explicit Tracer(std::size_t batchSize = 128)
        : m_batch(batchSize), m_next(m_batch.data()), m_end(m_batch.data() + m_batch.size()) {}
    Tracer(const Tracer&) = delete;
    Tracer& operator=(const Tracer&) = delete;

    void addSink(EventSink* sink) { m_sinks.push_back(sink); }

    // The next event slot, filled in place; commit() publishes it. A cursor rather than an index,
    // so that an event costs one pointer bump and one compare.
    Event& next() { return *m_next; }
    void commit() {
        if (++m_next == m_end)
            flush();
    }

    void flush() {
        if (m_next == m_batch.data())
            return;
        const std::span<const Event> batch(m_batch.data(), m_next);
        for (EventSink* sink : m_sinks)
            sink->onEvents(batch);
        m_next = m_batch.data();
    }

private:
    std::vector<Event> m_batch;
    Event* m_next; // the slot next() hands out
    Event* m_end;
    std::vector<EventSink*> m_sinks;
};

} // namespace la

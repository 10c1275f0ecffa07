// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"

#include <cstddef>
#include <vector>

namespace la {

// Collects events into fixed-size batches and hands each full batch to every sink, so a live view
// gets a steady trickle and the engine pays one virtual call per few thousand events.
class Tracer {
public:
    explicit Tracer(std::size_t batchSize = 4096) : m_batchSize(batchSize) { m_batch.reserve(batchSize); }

    void addSink(EventSink* sink) { m_sinks.push_back(sink); }

    void record(const Event& event) {
        m_batch.push_back(event);
        if (m_batch.size() == m_batchSize)
            flush();
    }

    void flush() {
        if (m_batch.empty())
            return;
        for (EventSink* sink : m_sinks)
            sink->onEvents(m_batch);
        m_batch.clear();
    }

private:
    std::size_t m_batchSize;
    std::vector<Event> m_batch;
    std::vector<EventSink*> m_sinks;
};

} // namespace la

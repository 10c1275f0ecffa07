// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "event.h"

#include <cstdint>
#include <memory>
#include <span>

namespace la {

// --stream-start-after N, for any input (docs/read-stream-model.md §9.3): the first N blocks come
// before the stream exists, each read on its own by the backend. Each is followed by a reset, so
// that nothing is looked ahead past it and the stream proper starts afresh at block N. A reset the
// inner source asks for before block N is dropped: there is no stream yet to reset.
class StreamStartSource final : public WrappedSource {
public:
    StreamStartSource(std::unique_ptr<BlockSource> inner, std::uint64_t startAfter)
        : WrappedSource(std::move(inner)), m_startAfter(startAfter) {}

    SourceItem next() override {
        SourceItem item = take();
        while (m_given <= m_startAfter && item.step == SourceStep::Reset)
            item = take();
        if (item.step != SourceStep::Block)
            return item;
        if (m_given > 0 && m_given <= m_startAfter && !m_resetDone) {
            m_resetDone = true;
            holdBack(item);
            return {SourceStep::Reset, 0};
        }
        m_resetDone = false;
        ++m_given;
        return item;
    }

private:
    void restart() override {
        m_given = 0;
        m_resetDone = false;
    }

    std::uint64_t m_startAfter;
    std::uint64_t m_given = 0; // blocks handed on
    bool m_resetDone = false;
};

// What the reads before the stream cost, from the run's events: the reads they started, the waits
// for them and the resets that kept each on its own (the first `startAfter` resets of the run).
class EarlyReadCounter final : public EventSink {
public:
    explicit EarlyReadCounter(std::uint64_t startAfter) : m_startAfter(startAfter) {}

    void onEvents(std::span<const Event> batch) override {
        for (const Event& event : batch) {
            if (resets == m_startAfter)
                return;
            reads += event.kind == EventKind::ReadStarted ? 1 : 0;
            waits += event.kind == EventKind::Waited ? 1 : 0;
            resets += event.kind == EventKind::Reset ? 1 : 0;
        }
    }

    std::uint64_t reads = 0, waits = 0, resets = 0;

private:
    std::uint64_t m_startAfter;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "index_batches.h"
#include "index_scan.h"
#include "stream_pacer.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace la::pg {

// Plays an index scan's heap visits to the stream (docs/pg-relations.md §6), each leaf page a batch.
// Consecutive TIDs in one heap block are one visit, so the stream never gets a block twice in a row.
// - continue: one stream across the batches;
// - reset: the stream is reset at every batch boundary, as the 2025 "simple" patch did;
// - ring: one stream across at most N open batches (docs/read-stream-model.md §9.3). A batch is open
//   from the one the consumer is in to the one the look-ahead reads; when the next visit would open
//   batch N+1 the stream is paused, and it resumes once the consumer has left the oldest batch.
// The visits before the stream starts (--stream-start-after) are the run's (stream_start.h).
class IndexSource final : public BlockSource, public StreamPacer {
public:
    IndexSource(std::shared_ptr<const IndexVisits> visits, IndexBatching batching,
                std::uint64_t relationBlocks)
        : m_visits(std::move(visits)), m_batching(batching), m_relationBlocks(relationBlocks) {}

    SourceItem next() override {
        const std::vector<std::uint32_t>& blocks = m_visits->blocks;
        if (m_next == blocks.size())
            return {SourceStep::End, 0};
        const bool batchStart = m_lookBatch < starts().size() && starts()[m_lookBatch] == m_next;
        if (batchStart && m_batching.mode == IndexBatches::Reset && !m_resetDone) {
            m_resetDone = true;
            return {SourceStep::Reset, 0};
        }
        if (m_batching.mode == IndexBatches::Ring && ringFull(m_lookBatch + (batchStart ? 1 : 0))) {
            if (!m_paused) {
                m_paused = true;
                ++m_pauses;
                m_pause(); // inside the callback, as read_stream_pause() is called
            }
            return {SourceStep::End, 0};
        }
        m_resetDone = false;
        if (batchStart)
            ++m_lookBatch;
        return {SourceStep::Block, blocks[m_next++]};
    }
    std::uint64_t length() const override { return m_visits->blocks.size(); }
    std::uint64_t relationBlocks() const override { return m_relationBlocks; }
    void rewind() override {
        m_next = 0;
        m_lookBatch = 0;
        m_consumerBatch = 0;
        m_resetDone = false;
        m_paused = false;
        m_pauses = 0;
    }

    void controlStream(std::function<void()> pause, std::function<void()> resume) override {
        m_pause = std::move(pause);
        m_resume = std::move(resume);
    }
    void consumerTook(std::uint64_t blocks) override {
        // The consumer is in the batch of the next visit it will take: the ones before are done.
        while (m_consumerBatch < starts().size() && starts()[m_consumerBatch] <= blocks)
            ++m_consumerBatch;
        if (m_paused && !ringFull(m_lookBatch + 1)) {
            m_paused = false;
            m_resume();
        }
    }
    // How often the ring was full and paused the stream.
    std::uint64_t pauses() const { return m_pauses; }

private:
    const std::vector<std::uint64_t>& starts() const { return m_visits->batchStarts; }
    // Whether batch `batch` (0-based) would be one more than the ring holds open.
    bool ringFull(std::size_t batch) const {
        return batch >= m_consumerBatch + static_cast<std::size_t>(m_batching.ring);
    }

    std::shared_ptr<const IndexVisits> m_visits;
    IndexBatching m_batching;
    std::uint64_t m_relationBlocks;
    std::uint64_t m_next = 0;
    // Batches are numbered from 0 (the first leaf page); batch k+1 starts at batchStarts[k].
    std::size_t m_lookBatch = 0;     // the batch of the last visit handed to the stream
    std::size_t m_consumerBatch = 0; // the batch of the next visit the consumer takes
    bool m_resetDone = false;
    bool m_paused = false;
    std::uint64_t m_pauses = 0;
    std::function<void()> m_pause = [] {}, m_resume = [] {};
};

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>

namespace la {

// A block source that holds the stream back until the consumer catches up (an index scan's ring of
// open batches, docs/read-stream-model.md §9): it pauses the stream from inside its next(), as
// PostgreSQL's callback calls read_stream_pause(), and the run's consumer loop tells it how far the
// consumer has got, so that it can resume it.
class StreamPacer {
public:
    virtual ~StreamPacer() = default;
    // The stream's pause() and resume(), wired by the run once the stream exists.
    virtual void controlStream(std::function<void()> pause, std::function<void()> resume) = 0;
    // The consumer has been handed `blocks` blocks so far (the stream's own count, early reads
    // included).
    virtual void consumerTook(std::uint64_t blocks) = 0;
};

} // namespace la

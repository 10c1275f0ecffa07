// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "read_stream.h"

#include <atomic>
#include <cstdint>

namespace la {

// The consumer's loop, the one every run and every test harness uses: take each buffer the stream
// hands out, spend the consumer's time on it, reset the stream where the source ends a scan, until
// the stream is done. `afterEach(stream, handedOut)` runs after each buffer is handed out and
// before the consumer's time is spent, on the stream's backend (a template, so the engine's hot loop
// pays no indirect call). `cancel` is checked on every block: a real run must stop within
// milliseconds of being asked. Returns false if cancelled.
template <typename AfterEach>
bool consumeStream(ReadStream& stream, std::int64_t consumerNs, const std::atomic<bool>* cancel,
                   AfterEach&& afterEach) {
    std::uint64_t handedOut = 0;
    for (;;) {
        if (cancel != nullptr && cancel->load(std::memory_order_relaxed))
            return false;
        std::uint32_t block = 0;
        if (!stream.nextBuffer(block)) {
            if (!stream.resetRequested())
                return true;
            stream.reset();
            continue;
        }
        afterEach(static_cast<const ReadStream&>(stream), ++handedOut);
        stream.consume(consumerNs);
    }
}

} // namespace la

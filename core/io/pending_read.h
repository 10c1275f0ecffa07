// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_size.h"

#include <cstddef>
#include <cstdint>

namespace la {

// One read between start() and wait(). FileBackend owns it; an AsyncReads engine performs it
// and fills in the completion.
struct PendingRead {
    std::uint32_t ioId = 0;
    std::uint32_t firstBlock = 0;
    std::uint32_t nblocks = 0;
    int fd = -1;
    std::uint64_t fileOffset = 0; // in fd's file: a relation's later segments start again at 0
    bool direct = false;          // fd is the O_DIRECT descriptor
    bool crossesSegments = false; // read by the consumer, a part from each file
    bool synchronous = false;     // performed by the consumer inside wait()
    std::byte* buffer = nullptr;
    std::int64_t arenaOffset = -1;
    std::int64_t submittedNs = 0;
    bool finished = false; // the consumer has waited for it

    // Completion, written by whoever performed the read.
    std::int64_t completedNs = 0;
    std::int64_t result = 0; // bytes read, or -errno
    bool done = false;

    std::uint64_t offset() const { return fileOffset; }
    std::uint64_t length() const { return std::uint64_t{nblocks} * kBlockSize; }
};

// Reads that run in the background: io_uring or a pool of threads. Reads are submitted and
// waited for by the consumer's thread only.
class AsyncReads {
public:
    // Returns only once no read is in flight, so the buffers can be freed after it.
    virtual ~AsyncReads() = default;
    virtual void submit(PendingRead& read) = 0;
    // Hands submitted reads to the kernel; called before the consumer waits or computes.
    virtual void flush() {}
    // Returns once `read` is done (submitting whatever is queued if it has to wait); true if the
    // consumer had to block for it.
    virtual bool awaitCompletion(PendingRead& read) = 0;
    // Collects finished reads without blocking, so completion times are taken when they happen.
    virtual void poll() {}
};

} // namespace la

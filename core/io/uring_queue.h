// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pending_read.h"
#include "run_clock.h"

#include <liburing.h>

#include <memory>
#include <string>

namespace la {

// One io_uring instance. It is created before anything else of the run, so that a kernel or a
// sandbox refusing io_uring (ENOSYS, EPERM) becomes a fallback rather than an error.
class UringRing {
public:
    // The ring, or nullptr with `error` set to the errno io_uring_queue_init returned.
    static std::unique_ptr<UringRing> create(unsigned entries, int& error);
    ~UringRing();
    UringRing(const UringRing&) = delete;
    UringRing& operator=(const UringRing&) = delete;

    io_uring ring{};

private:
    UringRing() = default;
    bool m_initialized = false;
};

// Reads through io_uring: one ring per stream, one SQE per read (a combined read is a single
// request of nblocks x 8 kB). Like PostgreSQL, reads started during one look-ahead are
// submitted together, when the consumer next waits or computes.
class UringQueue final : public AsyncReads {
public:
    // `path` names the file in error messages.
    UringQueue(std::unique_ptr<UringRing> ring, const RunClock& clock, std::string path);
    ~UringQueue() override;
    UringQueue(const UringQueue&) = delete;
    UringQueue& operator=(const UringQueue&) = delete;

    void submit(PendingRead& read) override;
    void flush() override;
    bool awaitCompletion(PendingRead& read) override;
    void poll() override;

private:
    void reap();
    void waitForOne(bool submit);

    std::unique_ptr<UringRing> m_ring;
    const RunClock& m_clock;
    std::string m_path;
    unsigned m_queued = 0;   // prepared, not yet submitted
    unsigned m_inKernel = 0; // submitted, completion not yet reaped
};

} // namespace la

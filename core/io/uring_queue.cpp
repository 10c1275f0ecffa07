// SPDX-License-Identifier: GPL-3.0-or-later
#include "uring_queue.h"

#include "io_backend.h"

#include <cerrno>
#include <cstring>
#include <string>

namespace la {

std::unique_ptr<UringRing> UringRing::create(unsigned entries, int& error) {
    std::unique_ptr<UringRing> ring(new UringRing);
    // liburing returns -errno itself (it does not set errno).
    const int rc = io_uring_queue_init(entries, &ring->ring, 0);
    error = rc < 0 ? -rc : 0;
    if (rc < 0)
        return nullptr;
    ring->m_initialized = true;
    return ring;
}

UringRing::~UringRing() {
    if (m_initialized)
        io_uring_queue_exit(&ring);
}

UringQueue::UringQueue(std::unique_ptr<UringRing> ring, const RunClock& clock, std::string path)
    : m_ring(std::move(ring)), m_clock(clock), m_path(std::move(path)) {}

UringQueue::~UringQueue() {
    // The kernel writes into the reads' buffers until they complete: reap every one before the
    // buffers (and the ring) go. Reads not yet submitted are simply dropped with the ring.
    while (m_inKernel > 0) {
        io_uring_cqe* cqe = nullptr;
        const int rc = io_uring_wait_cqe(&m_ring->ring, &cqe);
        if (rc == -EINTR)
            continue;
        if (rc < 0)
            break;
        reap();
    }
}

void UringQueue::submit(PendingRead& read) {
    io_uring_sqe* sqe = io_uring_get_sqe(&m_ring->ring);
    if (sqe == nullptr) {
        flush();
        sqe = io_uring_get_sqe(&m_ring->ring);
        if (sqe == nullptr)
            throw IoError("reading '" + m_path + "': the io_uring submission queue is full");
    }
    io_uring_prep_read(sqe, read.fd, read.buffer, static_cast<unsigned>(read.length()), read.offset());
    io_uring_sqe_set_data(sqe, &read);
    ++m_queued;
}

void UringQueue::flush() {
    while (m_queued > 0) {
        const int rc = io_uring_submit(&m_ring->ring);
        if (rc > 0) {
            m_queued -= static_cast<unsigned>(rc);
            m_inKernel += static_cast<unsigned>(rc);
        } else if ((rc == -EAGAIN || rc == -EBUSY || rc == 0) && m_inKernel > 0) {
            waitForOne(false); // the kernel is short of resources until something completes
        } else if (rc != -EINTR) {
            throw IoError("reading '" + m_path +
                          "': io_uring submission failed: " + std::strerror(rc < 0 ? -rc : EAGAIN));
        }
    }
}

void UringQueue::reap() {
    const std::int64_t now = m_clock.now();
    unsigned head = 0;
    unsigned count = 0;
    io_uring_cqe* cqe = nullptr;
    io_uring_for_each_cqe(&m_ring->ring, head, cqe) {
        auto* read = static_cast<PendingRead*>(io_uring_cqe_get_data(cqe));
        read->result = cqe->res;
        read->completedNs = now;
        read->done = true;
        ++count;
    }
    io_uring_cq_advance(&m_ring->ring, count);
    m_inKernel -= count;
}

void UringQueue::waitForOne(bool submit) {
    // Reads still queued go in with the same system call that waits.
    for (;;) {
        io_uring_cqe* cqe = nullptr;
        const int rc =
            submit ? io_uring_submit_and_wait(&m_ring->ring, 1) : io_uring_wait_cqe(&m_ring->ring, &cqe);
        if (rc >= 0) {
            if (submit) {
                m_queued -= static_cast<unsigned>(rc);
                m_inKernel += static_cast<unsigned>(rc);
            }
            break;
        }
        if (rc != -EINTR)
            throw IoError("reading '" + m_path +
                          "': submitting to or waiting on io_uring failed: " + std::strerror(-rc));
    }
    reap();
}

bool UringQueue::awaitCompletion(PendingRead& read) {
    poll();
    if (read.done)
        return false;
    while (!read.done) {
        if (m_queued == 0 && m_inKernel == 0)
            throw IoError("reading '" + m_path + "': a read was never submitted");
        waitForOne(m_queued > 0);
    }
    return true;
}

void UringQueue::poll() {
    if (io_uring_cq_ready(&m_ring->ring) > 0)
        reap();
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pending_read.h"
#include "run_clock.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace la {

// PostgreSQL's io_method=worker: a few threads take reads from a queue and perform them with
// pread, so at most `threads` reads are at the device at once, whatever the stream asks for.
class WorkerPool final : public AsyncReads {
public:
    WorkerPool(int threads, const RunClock& clock);
    ~WorkerPool() override;
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void submit(PendingRead& read) override;
    bool awaitCompletion(PendingRead& read) override;

private:
    void run();

    const RunClock& m_clock;
    std::mutex m_mutex;
    std::condition_variable m_work; // reads queued, or stop
    std::condition_variable m_done; // a read completed
    std::deque<PendingRead*> m_queue;
    bool m_stop = false;
    std::vector<std::thread> m_threads; // last, so everything they use exists before they start
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "worker_pool.h"

#include "scan_file.h"

namespace la {

WorkerPool::WorkerPool(int threads, const RunClock& clock) : m_clock(clock) {
    for (int i = 0; i < threads; ++i)
        m_threads.emplace_back([this] { run(); });
}

WorkerPool::~WorkerPool() {
    {
        // Reads still queued are dropped; reads a worker has begun finish before it is joined.
        const std::lock_guard lock(m_mutex);
        m_stop = true;
        m_queue.clear();
    }
    m_work.notify_all();
    for (std::thread& thread : m_threads)
        thread.join();
}

void WorkerPool::submit(PendingRead& read) {
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(&read);
    }
    m_work.notify_one();
}

bool WorkerPool::awaitCompletion(PendingRead& read) {
    std::unique_lock lock(m_mutex);
    if (read.done)
        return false;
    m_done.wait(lock, [&] { return read.done; });
    return true;
}

void WorkerPool::run() {
    for (;;) {
        PendingRead* read = nullptr;
        {
            std::unique_lock lock(m_mutex);
            m_work.wait(lock, [&] { return m_stop || !m_queue.empty(); });
            if (m_stop)
                return;
            read = m_queue.front();
            m_queue.pop_front();
        }
        const std::int64_t result = readFully(read->fd, read->buffer, read->length(), read->offset());
        const std::int64_t completed = m_clock.now();
        {
            const std::lock_guard lock(m_mutex);
            read->result = result;
            read->completedNs = completed;
            read->done = true;
        }
        m_done.notify_one();
    }
}

} // namespace la

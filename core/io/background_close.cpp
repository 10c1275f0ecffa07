// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_close.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace la {

namespace {

// One thread closes what it is handed, in order. At exit it closes what is left and is joined, so no
// descriptor or thread outlives the program's own end (a sanitizer's leak check runs after it).
class Closer {
public:
    ~Closer() {
        {
            const std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_one();
        if (m_thread.joinable())
            m_thread.join();
    }

    void close(int fd) {
        {
            const std::lock_guard lock(m_mutex);
            if (!m_thread.joinable()) {
                try {
                    m_thread = std::thread([this] { closeAll(); });
                } catch (const std::system_error&) {
                    UniqueFd closing(fd); // no thread to be had: here, then
                    return;
                }
            }
            m_fds.push_back(fd);
        }
        m_wake.notify_one();
    }

private:
    void closeAll() {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [this] { return m_stopping || !m_fds.empty(); });
            if (m_fds.empty())
                return; // stopping, and nothing is left
            const int fd = m_fds.front();
            m_fds.pop_front();
            lock.unlock();
            UniqueFd{fd}.reset();
            lock.lock();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<int> m_fds;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace

void closeInBackground(UniqueFd fd) {
    if (!fd.valid())
        return;
    static Closer closer;
    closer.close(fd.release());
}

} // namespace la

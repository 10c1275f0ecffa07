// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_close.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace la {

namespace {

// One thread closes what it is handed, in order, and otherwise waits. It is never stopped: at exit
// the kernel closes what is left. Joining it then would have the program's last act race with the
// thread's end, and a sanitizer's leak check, which stops every thread after that, crashed on it
// (LeakSanitizer: "Tracer caught signal 11").
class Closer {
public:
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
    [[noreturn]] void closeAll() {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [this] { return !m_fds.empty(); });
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
    std::thread m_thread;
};

std::atomic<bool> g_enabled{false};

} // namespace

void enableBackgroundClose() {
    g_enabled = true;
}

void closeInBackground(UniqueFd fd) {
    if (!fd.valid() || !g_enabled)
        return; // fd closes here
    // Never destroyed (its thread runs to the end), and reachable from here for a leak check.
    static Closer* const closer = new Closer;
    closer->close(fd.release());
}

} // namespace la

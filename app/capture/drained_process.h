// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/unique_fd.h"

#include <QString>
#include <QStringList>

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace la {

// A program we start (strace) whose standard output and error are read by a thread of ours for as
// long as it runs: a pipe nobody empties blocks the writer once it is full, and a tracer that blocks
// stops the processes it traces with it. What it says is kept, the first and the last 16 KiB of it,
// for its messages. It gets SIGTERM if the thread that started it ends (PR_SET_PDEATHSIG), so it never
// outlives us.
class DrainedProcess {
public:
    DrainedProcess() = default;
    ~DrainedProcess();
    DrainedProcess(const DrainedProcess&) = delete;
    DrainedProcess& operator=(const DrainedProcess&) = delete;

    // Starts `program` (an absolute path) with `args`, stdin from /dev/null. An error message, empty
    // on success.
    QString start(const QString& program, const QStringList& args);
    bool running() const;

    // Waits until `ready` holds for what it said so far (its first 16 KiB), it ended, or `timeout`
    // passed; whether `ready` held.
    bool waitForOutput(const std::function<bool(const std::string& said)>& ready,
                       std::chrono::milliseconds timeout);
    // Sends `signal`; then waits up to `timeout` for it to end. Whether it ended.
    bool signalAndWait(int signal, std::chrono::milliseconds timeout);
    // What it said: its first 16 KiB and, beyond them, its last.
    std::string said() const;

private:
    void drain(UniqueFd out);
    void reap(bool wait);

    pid_t m_pid = -1;
    UniqueFd m_pidFd; // to wait for its end with a timeout
    std::thread m_reader;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::string m_head, m_tail;
    std::size_t m_total = 0; // bytes said
    bool m_drained = false;  // its output closed: it ended, or closed them
    int m_status = -1;       // its exit status as a shell shows it (128 + signal) once it ended; -1 before
};

} // namespace la

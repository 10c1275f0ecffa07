// SPDX-License-Identifier: GPL-3.0-or-later
#include "drained_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <vector>

namespace la {

namespace {

constexpr std::size_t kKeptBytes = 16 * 1024;

} // namespace

DrainedProcess::~DrainedProcess() {
    if (running())
        signalAndWait(SIGKILL, std::chrono::seconds(5));
    if (m_reader.joinable())
        m_reader.join();
}

QString DrainedProcess::start(const QString& program, const QStringList& args) {
    // Everything the child needs is made before fork(): after it, a threaded process's child may
    // only call what is async-signal-safe.
    std::vector<std::string> words{program.toStdString()};
    for (const QString& arg : args)
        words.push_back(arg.toStdString());
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    const UniqueFd null(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    int output[2], execError[2];
    if (!null.valid() || ::pipe2(output, O_CLOEXEC) != 0)
        return QStringLiteral("cannot start %1: %2")
            .arg(program, QString::fromLocal8Bit(std::strerror(errno)));
    UniqueFd readEnd(output[0]), writeEnd(output[1]);
    if (::pipe2(execError, O_CLOEXEC) != 0)
        return QStringLiteral("cannot start %1: %2")
            .arg(program, QString::fromLocal8Bit(std::strerror(errno)));
    UniqueFd errorRead(execError[0]), errorWrite(execError[1]);
    const pid_t parent = ::getpid();
    m_pid = ::fork();
    if (m_pid < 0)
        return QStringLiteral("cannot start %1: %2")
            .arg(program, QString::fromLocal8Bit(std::strerror(errno)));
    if (m_pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) // the parent ended before the line above
            ::_exit(127);
        ::dup2(null.get(), STDIN_FILENO);
        ::dup2(writeEnd.get(), STDOUT_FILENO);
        ::dup2(writeEnd.get(), STDERR_FILENO);
        ::execv(argv[0], argv.data());
        const int error = errno;
        [[maybe_unused]] const ssize_t n = ::write(errorWrite.get(), &error, sizeof error);
        ::_exit(127);
    }
    writeEnd.reset();
    errorWrite.reset();
    int error = 0;
    ssize_t n = 0;
    while ((n = ::read(errorRead.get(), &error, sizeof error)) < 0 && errno == EINTR) {
    }
    if (n == sizeof error) {
        reap(true);
        m_pid = -1;
        return QStringLiteral("cannot run %1: %2").arg(program, QString::fromLocal8Bit(std::strerror(error)));
    }
    m_pidFd.reset(int(::syscall(SYS_pidfd_open, m_pid, 0)));
    m_reader = std::thread([this, out = std::move(readEnd)]() mutable { drain(std::move(out)); });
    return {};
}

void DrainedProcess::drain(UniqueFd out) {
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(out.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        const std::lock_guard lock(m_mutex);
        if (n <= 0) {
            m_drained = true;
            m_changed.notify_all();
            return;
        }
        const std::string_view bytes(buffer, std::size_t(n));
        m_total += bytes.size();
        const std::size_t toHead = std::min(bytes.size(), kKeptBytes - m_head.size());
        m_head.append(bytes.substr(0, toHead));
        m_tail.append(bytes.substr(toHead));
        if (m_tail.size() > kKeptBytes)
            m_tail.erase(0, m_tail.size() - kKeptBytes);
        m_changed.notify_all();
    }
}

bool DrainedProcess::running() const {
    const std::lock_guard lock(m_mutex);
    return m_pid > 0 && m_status < 0;
}

bool DrainedProcess::waitForOutput(const std::function<bool(const std::string& said)>& ready,
                                   std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    m_changed.wait_for(lock, timeout, [&] { return ready(m_head) || m_drained; });
    return ready(m_head);
}

void DrainedProcess::reap(bool wait) {
    int status = 0;
    pid_t done = 0;
    while ((done = ::waitpid(m_pid, &status, wait ? 0 : WNOHANG)) < 0 && errno == EINTR) {
    }
    if (done != m_pid)
        return;
    const std::lock_guard lock(m_mutex);
    m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool DrainedProcess::signalAndWait(int signal, std::chrono::milliseconds timeout) {
    if (m_pid <= 0)
        return true;
    if (running()) {
        ::kill(m_pid, signal);
        if (m_pidFd.valid()) {
            pollfd fd{m_pidFd.get(), POLLIN, 0};
            while (::poll(&fd, 1, int(timeout.count())) < 0 && errno == EINTR) {
            }
        }
        reap(!m_pidFd.valid());
    }
    if (running())
        return false;
    if (m_reader.joinable())
        m_reader.join();
    return true;
}

std::string DrainedProcess::said() const {
    const std::lock_guard lock(m_mutex);
    const bool cut = m_total > m_head.size() + m_tail.size();
    return cut ? m_head + "\n…\n" + m_tail : m_head + m_tail;
}

} // namespace la

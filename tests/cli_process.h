// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lookahead binary run as a user runs it: arguments in, exit code and both outputs back.

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

extern char** environ;

namespace la::test {

struct CliResult {
    int exitCode = -1; // -1: killed by a signal or timed out
    QString out;
    QString err;
};

// Waits for a started `process`; one that outlasts `timeoutMs` is killed.
inline CliResult finishProcess(QProcess& process, int timeoutMs) {
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

// Waits until a started `process` has written `text` on stderr (a stage of its work it reports);
// `err` gathers what it wrote so far.
inline bool waitForStderr(QProcess& process, const char* text, QByteArray& err, int timeoutMs) {
    // Woken by what the process writes there, not by polling it.
    const QProcess::ProcessChannel before = process.readChannel();
    process.setReadChannel(QProcess::StandardError);
    const QDeadlineTimer deadline(timeoutMs);
    err += process.readAllStandardError();
    while (!err.contains(text) && process.waitForReadyRead(static_cast<int>(deadline.remainingTime())))
        err += process.readAllStandardError();
    process.setReadChannel(before);
    return err.contains(text);
}

// Runs LOOKAHEAD_BINARY (each test defines it); one that outlasts `timeoutMs` is killed.
inline CliResult runLookahead(const QStringList& args, int timeoutMs) {
    QProcess process;
    process.start(QStringLiteral(LOOKAHEAD_BINARY), args);
    return finishProcess(process, timeoutMs);
}

// A descriptor that becomes readable when process `pid` ends, or -1. (Debian 12's <sys/pidfd.h>
// declares pidfd_open without C linkage, so the call goes through syscall().)
inline int pidfdOf(pid_t pid) {
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

// Waits until `done` holds, checking it again each time a file in `dir` is created or written
// (inotify on the directory, so the writer's progress wakes it); false if it does not within `timeoutMs`.
template <typename Done> bool untilWrittenIn(const QString& dir, Done done, int timeoutMs) {
    const int writes = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (writes < 0)
        return false;
    const QDeadlineTimer deadline(timeoutMs);
    bool held = false;
    if (::inotify_add_watch(writes, QFile::encodeName(dir).constData(),
                            IN_CREATE | IN_MODIFY | IN_MOVED_TO) >= 0) {
        held = done(); // after the watch is set: a write in between still wakes the poll below
        while (!held && !deadline.hasExpired()) {
            pollfd written{writes, POLLIN, 0};
            if (::poll(&written, 1, static_cast<int>(deadline.remainingTime())) < 0 && errno != EINTR)
                break;
            char events[4096];
            while (::read(writes, events, sizeof events) > 0) {
            }
            held = done();
        }
    }
    ::close(writes);
    return held;
}

// Waits until child `pid` has ended (not reaped: its rusage stays for wait4), woken by its pidfd;
// false if it outlasts `timeoutMs`.
inline bool childEnds(pid_t pid, int timeoutMs) {
    const int pidfd = pidfdOf(pid);
    if (pidfd < 0)
        return false;
    const QDeadlineTimer deadline(timeoutMs);
    pollfd ended{pidfd, POLLIN, 0};
    int ready = 0;
    do
        ready = ::poll(&ended, 1, static_cast<int>(deadline.remainingTime()));
    while (ready < 0 && errno == EINTR);
    ::close(pidfd);
    return ready == 1;
}

// A run whose peak memory is measured (wait4's rusage of the child alone), its output kept in files
// of `dir`; one that outlasts `timeoutMs` is killed and has exit code -1.
struct MeasuredRun {
    CliResult result;
    long maxRssKb = -1;
};

inline MeasuredRun runMeasured(const QStringList& args, const QString& dir, int timeoutMs = 60'000) {
    const QByteArray out = (dir + QStringLiteral("/measured-out.txt")).toLocal8Bit();
    const QByteArray err = (dir + QStringLiteral("/measured-err.txt")).toLocal8Bit();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<QByteArray> storage{QByteArrayLiteral(LOOKAHEAD_BINARY)};
    for (const QString& arg : args)
        storage.push_back(arg.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& arg : storage)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    MeasuredRun m;
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, LOOKAHEAD_BINARY, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return m;
    int status = 0;
    rusage usage{};
    if (!childEnds(pid, timeoutMs)) {
        ::kill(pid, SIGKILL);
        ::wait4(pid, &status, 0, &usage);
        return m;
    }
    ::wait4(pid, &status, 0, &usage);
    const auto text = [](const QByteArray& path) {
        QFile f(QString::fromLocal8Bit(path));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    };
    m.result = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text(out), text(err)};
    m.maxRssKb = usage.ru_maxrss;
    return m;
}

} // namespace la::test

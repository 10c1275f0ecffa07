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
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

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
    return QTest::qWaitFor(
        [&] {
            err += process.readAllStandardError();
            return err.contains(text);
        },
        timeoutMs);
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

// Makes the pipe behind `fd` (either end, or a FIFO held open) one page long, before its writer starts.
// A writer's write(2) of more than a page then cannot complete while nobody reads.
inline bool shrinkPipe(int fd) {
    return ::fcntl(fd, F_SETPIPE_SZ, static_cast<int>(::sysconf(_SC_PAGESIZE))) > 0;
}

// Waits, without reading, until bytes arrive in the pipe `fd` that shrinkPipe() shortened. The kernel
// has no event for "asleep in pipe_write", but the first bytes of a write longer than the pipe come
// from inside that call, which then stays in the kernel, blocked on the full pipe, until a signal ends
// it. False if none arrive within `timeoutMs`.
inline bool untilWriterStalls(int fd, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    pollfd readable{fd, POLLIN, 0};
    int ready = 0;
    do
        ready = ::poll(&readable, 1, static_cast<int>(deadline.remainingTime()));
    while (ready < 0 && errno == EINTR);
    return ready > 0 && (readable.revents & POLLIN) != 0;
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

// A run whose peak memory is measured, its peak written by GNU time to a file of `dir`: the measured
// process must not be a direct child of this one, since exec records the replaced memory's peak and
// a child forked or spawned from a test holds the test's own; time's fork holds only time's.
struct MeasuredRun {
    CliResult result;
    long maxRssKb = -1;
};

inline MeasuredRun runMeasured(const QStringList& args, const QString& dir, int timeoutMs = 60'000) {
    const QString peak = dir + QStringLiteral("/measured-peak.txt");
    QProcess process;
    process.start(QStringLiteral("/usr/bin/time"),
                  QStringList{QStringLiteral("--format=%M"), QStringLiteral("--output=") + peak,
                              QStringLiteral(LOOKAHEAD_BINARY)} +
                      args);
    MeasuredRun m;
    m.result = finishProcess(process, timeoutMs);
    QFile f(peak);
    bool ok = false;
    if (f.open(QIODevice::ReadOnly))
        m.maxRssKb = f.readAll().trimmed().split('\n').last().toLong(&ok);
    if (!ok)
        m.maxRssKb = -1;
    return m;
}

} // namespace la::test

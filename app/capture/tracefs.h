// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The few tracefs steps the kernel tracer needs: whether this process may use it, mounting it, and
// its own instances (a private ring buffer and event set, so nobody else's tracing is touched).

#include <QString>
#include <QStringList>

namespace la::tracefs {

// Where tracefs is mounted on current kernels.
QString root();

// The event directories under events/ the kernel tracer enables.
QStringList neededEvents();

// What this process has for tracing, as far as the kernel tracer needs it.
struct Access {
    bool root = false;              // effective uid 0
    bool perfmon = false;           // CAP_PERFMON in the effective set
    bool mounted = false;           // tracefs is mounted at root()
    bool instancesWritable = false; // may create instances there
    QStringList missingEvents;      // needed events the kernel does not offer (checked when readable)
};
Access probeAccess();
// What is missing and what to do, every problem named; empty if the kernel tracer can run.
// (An unmounted tracefs is no problem for root: it is mounted.)
QString accessProblem(const Access& access);

// Mounts tracefs at root() if it is not mounted; an error message, empty on success.
QString mountIfNeeded();

// What our instances' names begin with; the pid of the capture that made one follows.
inline constexpr const char* kInstancePrefix = "lookahead-";

// Removes the instances "lookahead-PID..." whose capture is gone: left behind by one that was
// killed (SIGKILL) before it could remove its own, they go on tracing (every traced system call
// costs a little more) until removed. One still in use (its pipe open) stays. Returns what was
// removed, each as "NAME (its capture, pid PID, has ended)".
QStringList removeStaleInstances();

// Writes `value` to a tracefs control file; an error message naming it, empty on success.
QString writeControl(const QString& path, const QByteArray& value);

} // namespace la::tracefs

// SPDX-License-Identifier: GPL-3.0-or-later
#include "strace_tracer.h"

#include <QFile>
#include <QStandardPaths>

#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <utility>

namespace la {

namespace {

QString straceProgram() {
    return QStandardPaths::findExecutable(QStringLiteral("strace"));
}

// The real user id a process runs as, or -1 if it cannot be read (gone, or hidden from us).
long processUid(qint64 pid) {
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine())
        if (line.startsWith("Uid:")) {
            const QList<QByteArray> fields = line.mid(4).simplified().split(' ');
            bool ok = false;
            const long uid = fields.value(0).toLong(&ok);
            return ok ? uid : -1;
        }
    return -1;
}

// kernel.yama.ptrace_scope: 0 lets a user trace its own processes, 1 only its descendants (root
// excepted), 2 only root, 3 nobody. -1 when Yama is not built in (the classic rules apply).
int ptraceScope() {
    QFile scope(QStringLiteral("/proc/sys/kernel/yama/ptrace_scope"));
    if (!scope.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const int value = scope.readAll().trimmed().toInt(&ok);
    return ok ? value : -1;
}

} // namespace

StraceTracer::~StraceTracer() {
    stop();
}

QString StraceTracer::unavailable(const CaptureTargets& targets) const {
    if (straceProgram().isEmpty())
        return QStringLiteral("strace is not installed: install it (apt-get install strace)");
    const int scope = ptraceScope();
    const bool root = ::geteuid() == 0;
    if (scope == 3)
        return QStringLiteral("kernel.yama.ptrace_scope is 3: no process may be traced until a reboot");
    if (scope == 2 && !root)
        return QStringLiteral("kernel.yama.ptrace_scope is 2: only root may trace; run as root");
    for (const qint64 pid : targets.pids) {
        const long uid = processUid(pid);
        if (uid < 0)
            return QStringLiteral("process %1 is not visible here: the server must run on this machine")
                .arg(pid);
        if (root)
            continue;
        if (uid != long(::geteuid()))
            return QStringLiteral("process %1 runs as another user (uid %2): run as root or as the server's "
                                  "OS user")
                .arg(pid)
                .arg(uid);
        if (scope == 1)
            return QStringLiteral("kernel.yama.ptrace_scope is 1: only root may attach to a running server; "
                                  "run as root, or set it to 0 (sysctl kernel.yama.ptrace_scope=0)");
    }
    return {};
}

QString StraceTracer::start(const CaptureTargets& targets, const QString& outPath) {
    if (const QString why = unavailable(targets); !why.isEmpty())
        return why;
    if (targets.pids.empty())
        return QStringLiteral("no process to trace");
    m_outPath = outPath;
    // -f follows the children of every traced process (only the postmaster has any worth following;
    // a backend or I/O worker does not fork, so one strace serves all), and it puts the pid on every
    // line, which the import needs to tell the backend's reads from the workers'.
    QStringList args{QStringLiteral("-f"), QStringLiteral("-ttt"),
                     QStringLiteral("-T"), QStringLiteral("-yy"),
                     QStringLiteral("-e"), QStringLiteral("trace=pread64,preadv,preadv2"),
                     QStringLiteral("-o"), outPath};
    for (const qint64 pid : targets.pids)
        args << QStringLiteral("-p") << QString::number(pid);
    // strace must not outlive us: if Lookahead dies, the server would stay traced.
    m_strace.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    m_strace.setReadChannel(QProcess::StandardError);
    m_strace.start(straceProgram(), args);
    if (!m_strace.waitForStarted(30'000))
        return QStringLiteral("strace did not start: ") + m_strace.errorString();
    // strace says "Process N attached" for each; a process it cannot attach to is an error line.
    QString said;
    const auto attached = [&] { return said.count(QStringLiteral(" attached")); };
    while (attached() < qsizetype(targets.pids.size())) {
        if (!m_strace.waitForReadyRead(30'000) && m_strace.state() != QProcess::Running)
            break;
        said += QString::fromLocal8Bit(m_strace.readAllStandardError());
        if (said.contains(QLatin1String("Operation not permitted")) ||
            said.contains(QLatin1String("No such process")))
            break;
    }
    if (attached() < qsizetype(targets.pids.size())) {
        stop();
        const QString why = said.trimmed().section(QLatin1Char('\n'), 0, 0);
        return QStringLiteral("strace could not attach to every process%1")
            .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why);
    }
    return {};
}

QString StraceTracer::stop() {
    if (m_outPath.isEmpty()) // not started, or stopped already
        return {};
    const QString outPath = std::exchange(m_outPath, QString());
    // SIGTERM: strace detaches from every process and finishes its file. It has ended by itself if
    // every traced process has.
    if (m_strace.state() != QProcess::NotRunning) {
        m_strace.terminate();
        if (!m_strace.waitForFinished(30'000)) {
            m_strace.kill();
            m_strace.waitForFinished(5'000);
            return QStringLiteral("strace did not detach within 30 s and was killed");
        }
    }
    return appendNotes(outPath);
}

// After strace's own lines: the import skips `#` lines (docs/trace-import.md §2.1).
QString StraceTracer::appendNotes(const QString& outPath) const {
    if (notes().empty())
        return {};
    QFile file(outPath);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append))
        return QStringLiteral("cannot add the capture's notes to %1: %2").arg(outPath, file.errorString());
    for (std::string note : notes()) {
        std::replace(note.begin(), note.end(), '\n', ' ');
        file.write("# " + QByteArray::fromStdString(note) + '\n');
    }
    if (!file.flush())
        return QStringLiteral("cannot add the capture's notes to %1: %2").arg(outPath, file.errorString());
    return {};
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "strace_tracer.h"

#include "files/output_file.h"
#include "io_backend.h"

#include <QFile>
#include <QStandardPaths>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>
#include <vector>

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
    abandon();
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

QString StraceTracer::start(const CaptureTargets& targets, std::unique_ptr<OutputFile> output) {
    abandon();
    if (const QString why = unavailable(targets); !why.isEmpty())
        return why;
    if (targets.pids.empty())
        return QStringLiteral("no process to trace");
    try {
        m_private.emplace(HeldDirectory::makePrivate("lookahead-strace-"));
        m_written = m_private->createFile("strace.out", O_RDONLY);
    } catch (const IoError& error) {
        m_private.reset();
        return QString::fromStdString(error.what());
    }
    m_output = std::move(output);
    // -f follows the children of every traced process (only the postmaster has any worth following;
    // a backend or I/O worker does not fork, so one strace serves all), and it puts the pid on every
    // line, which the import needs to tell the backend's reads from the workers'. strace opens the
    // file we made (it truncates it, empty as it is); its directory is ours alone.
    QStringList args{QStringLiteral("-f"), QStringLiteral("-ttt"),
                     QStringLiteral("-T"), QStringLiteral("-yy"),
                     QStringLiteral("-e"), QStringLiteral("trace=pread64,preadv,preadv2"),
                     QStringLiteral("-o"), QString::fromStdString(m_private->filePath("strace.out"))};
    for (const qint64 pid : targets.pids)
        args << QStringLiteral("-p") << QString::number(pid);
    m_strace = std::make_unique<DrainedProcess>();
    if (const QString error = m_strace->start(straceProgram(), args); !error.isEmpty()) {
        abandon();
        return QStringLiteral("strace did not start: ") + error;
    }
    // strace says "Process N attached" for each; a process it cannot attach to is an error line.
    const auto attached = [](const std::string& said) {
        std::size_t count = 0;
        for (std::size_t at = said.find(" attached"); at != std::string::npos;
             at = said.find(" attached", at + 1))
            ++count;
        return count;
    };
    const bool all = m_strace->waitForOutput(
        [&](const std::string& said) {
            return attached(said) >= targets.pids.size() ||
                   said.find("Operation not permitted") != std::string::npos ||
                   said.find("No such process") != std::string::npos;
        },
        std::chrono::seconds(30));
    const std::string said = m_strace->said();
    if (!all || attached(said) < targets.pids.size()) {
        abandon();
        const QString why = QString::fromLocal8Bit(said).trimmed().section(QLatin1Char('\n'), 0, 0);
        return QStringLiteral("strace could not attach to every process%1")
            .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why);
    }
    return {};
}

QString StraceTracer::endStrace() {
    if (!m_strace)
        return {};
    // SIGTERM: strace detaches from every process and finishes its file. It has ended by itself if
    // every traced process has.
    QString error;
    if (!m_strace->signalAndWait(SIGTERM, std::chrono::seconds(30))) {
        m_strace->signalAndWait(SIGKILL, std::chrono::seconds(5));
        error = QStringLiteral("strace did not detach within 30 s and was killed");
    }
    m_strace.reset();
    return error;
}

void StraceTracer::abandon() {
    endStrace();
    m_output.reset();
    m_written.reset();
    m_private.reset();
}

QString StraceTracer::stop() {
    if (!m_output) // not started, or stopped already
        return {};
    QString error = endStrace();
    if (error.isEmpty())
        error = publish();
    abandon();
    return error;
}

// strace's lines, then the notes after them: the import skips `#` lines (docs/trace-import.md §2.1).
QString StraceTracer::publish() {
    try {
        std::vector<char> buffer(1 << 20);
        for (off_t at = 0;;) {
            const ssize_t n = ::pread(m_written.get(), buffer.data(), buffer.size(), at);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                throw IoError(std::string("cannot read strace's output: ") + std::strerror(errno));
            if (n == 0)
                break;
            m_output->write(std::string_view(buffer.data(), std::size_t(n)));
            at += n;
        }
        for (std::string note : notes()) {
            std::replace(note.begin(), note.end(), '\n', ' ');
            m_output->write("# " + note + '\n');
        }
        m_output->commit();
    } catch (const IoError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracefs.h"

#include <QDir>
#include <QFile>

#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace la::tracefs {

namespace {

constexpr int kCapPerfmon = 38; // linux/capability.h, not in every libc's headers

bool isMounted() {
    QFile mounts(QStringLiteral("/proc/self/mountinfo"));
    if (!mounts.open(QIODevice::ReadOnly))
        return false;
    // "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE SUPEROPTIONS"
    for (QByteArray line = mounts.readLine(); !line.isEmpty(); line = mounts.readLine()) {
        const QList<QByteArray> fields = line.split(' ');
        const qsizetype dash = fields.indexOf("-");
        if (fields.size() > 4 && dash > 0 && dash + 1 < fields.size() && fields[4] == root().toUtf8() &&
            fields[dash + 1] == "tracefs")
            return true;
    }
    return false;
}

bool hasPerfmon() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine())
        if (line.startsWith("CapEff:")) {
            bool ok = false;
            const qulonglong caps = line.mid(7).trimmed().toULongLong(&ok, 16);
            return ok && (caps >> kCapPerfmon) & 1;
        }
    return false;
}

} // namespace

QString root() {
    return QStringLiteral("/sys/kernel/tracing");
}

QStringList neededEvents() {
    return {QStringLiteral("block/block_rq_issue"), QStringLiteral("block/block_rq_complete"),
            QStringLiteral("filemap/mm_filemap_add_to_page_cache")};
}

Access probeAccess() {
    Access access;
    access.root = ::geteuid() == 0;
    access.perfmon = hasPerfmon();
    access.mounted = isMounted();
    const QByteArray instances = (root() + QStringLiteral("/instances")).toLocal8Bit();
    access.instancesWritable = access.mounted && ::access(instances.constData(), W_OK) == 0;
    if (access.instancesWritable)
        for (const QString& event : neededEvents())
            if (!QFile::exists(root() + QStringLiteral("/events/") + event + QStringLiteral("/enable")))
                access.missingEvents << event;
    return access;
}

QString accessProblem(const Access& access) {
    QStringList problems;
    if (!access.root && !access.perfmon)
        problems << QStringLiteral("this process is neither root nor has CAP_PERFMON (run as root, e.g. with "
                                   "sudo)");
    if (!access.mounted && !access.root)
        problems << QStringLiteral(
                        "tracefs is not mounted at %1 and only root may mount it (mount -t tracefs "
                        "nodev %1)")
                        .arg(root());
    else if (access.mounted && !access.instancesWritable)
        problems << QStringLiteral("no write access to %1/instances (tracefs lets only root in by default)")
                        .arg(root());
    if (!access.missingEvents.isEmpty())
        problems << QStringLiteral("the kernel offers no tracepoint %1 (it needs CONFIG_BLOCK and "
                                   "CONFIG_FTRACE's event tracing)")
                        .arg(access.missingEvents.join(QStringLiteral(", ")));
    if (problems.isEmpty())
        return {};
    return QStringLiteral("the kernel tracer cannot run here: ") + problems.join(QStringLiteral("; ")) +
           QStringLiteral("; or use --tracer strace");
}

QString mountIfNeeded() {
    if (isMounted())
        return {};
    if (::mount("nodev", root().toLocal8Bit().constData(), "tracefs", 0, nullptr) != 0)
        return QStringLiteral("cannot mount tracefs at %1: %2")
            .arg(root(), QString::fromLocal8Bit(std::strerror(errno)));
    return {};
}

QStringList removeStaleInstances() {
    const QDir instances(root() + QStringLiteral("/instances"));
    const QStringList names =
        instances.entryList({QLatin1String(kInstancePrefix) + QLatin1Char('*')}, QDir::Dirs);
    QStringList removed;
    for (const QString& name : names) {
        bool ok = false;
        const qint64 pid = name.section(QLatin1Char('-'), 1, 1).toLongLong(&ok);
        if (!ok || pid <= 0 || pid > INT32_MAX)
            continue;
        if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH)
            continue;
        // A capture in another PID namespace may name its instance by a pid we do not see: its
        // open pipe makes the removal fail (EBUSY), and it stays.
        if (::rmdir(instances.filePath(name).toLocal8Bit().constData()) == 0)
            removed << QStringLiteral("%1 (its capture, pid %2, has ended)").arg(name).arg(pid);
    }
    return removed;
}

QString writeControl(const QString& path, const QByteArray& value) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered) || file.write(value) != value.size())
        return QStringLiteral("cannot write '%1' to %2: %3")
            .arg(QString::fromUtf8(value).trimmed(), path, file.errorString());
    return {};
}

} // namespace la::tracefs

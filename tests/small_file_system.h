// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A small file system of the test's own, to fill for real: a tmpfs of a given size, mounted in a
// mount namespace private to the test process. The test and the processes it starts see it; the rest
// of the machine never does, and it goes with the process even if the test crashes. Mounting needs
// root (CAP_SYS_ADMIN): where that is impossible, skipReason() says why and the test skips.

#include <QDir>
#include <QFile>
#include <QString>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace la::test {

class SmallFileSystem {
public:
    SmallFileSystem(const QString& where, qint64 bytes) : m_path(where) {
        if (::geteuid() != 0) {
            m_skip = QStringLiteral("mounting a tmpfs needs root (CAP_SYS_ADMIN); this runs as uid %1")
                         .arg(::geteuid());
            return;
        }
        if (const Failure& failed = enterPrivateMountNamespace(); !failed.why.isEmpty()) {
            (failed.error == EPERM ? m_skip : m_error) = failed.why;
            return;
        }
        if (!QDir().mkpath(where)) {
            m_error = QStringLiteral("cannot create the mount point %1").arg(where);
            return;
        }
        const QByteArray options = "size=" + QByteArray::number(bytes) + ",mode=0700";
        if (::mount("tmpfs", QFile::encodeName(where).constData(), "tmpfs", 0, options.constData()) != 0) {
            const int error = errno;
            (error == EPERM ? m_skip : m_error) =
                QStringLiteral("cannot mount a tmpfs on %1: %2").arg(where, errnoText(error));
            return;
        }
        m_mounted = true;
    }
    ~SmallFileSystem() {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_path).constData(), MNT_DETACH);
    }
    SmallFileSystem(const SmallFileSystem&) = delete;
    SmallFileSystem& operator=(const SmallFileSystem&) = delete;

    const QString& path() const { return m_path; }
    // Why no file system can be mounted here (not root, or root in a container without
    // CAP_SYS_ADMIN), or empty.
    QString skipReason() const { return m_skip; }
    // Why mounting failed where it should have worked, or empty.
    QString error() const { return m_error; }

    // Writes a filler file until the file system refuses with ENOSPC, then checks that it really is
    // full: no block left, and not one byte more can be written to a new file. Returns what went
    // wrong, empty when it is full.
    QString fill() const {
        const QString filler = m_path + QStringLiteral("/filler");
        const int fd =
            ::open(QFile::encodeName(filler).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0)
            return QStringLiteral("cannot create %1: %2").arg(filler, errnoText());
        const std::vector<char> chunk(64 * 1024, 'f');
        int stoppedBy = 0;
        while (stoppedBy == 0) {
            if (::write(fd, chunk.data(), chunk.size()) < 0 && errno != EINTR)
                stoppedBy = errno;
        }
        ::close(fd);
        if (stoppedBy != ENOSPC)
            return QStringLiteral("filling %1 stopped with \"%2\", not ENOSPC")
                .arg(m_path, errnoText(stoppedBy));
        struct statvfs st {};
        if (::statvfs(QFile::encodeName(m_path).constData(), &st) != 0)
            return QStringLiteral("statvfs %1: %2").arg(m_path, errnoText());
        if (st.f_bavail != 0)
            return QStringLiteral("%1 still has %2 blocks free after filling").arg(m_path).arg(st.f_bavail);
        const QString probe = m_path + QStringLiteral("/probe");
        const int probeFd =
            ::open(QFile::encodeName(probe).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        const ssize_t wrote = probeFd < 0 ? -1 : ::write(probeFd, "x", 1);
        const int probeErrno = errno;
        if (probeFd >= 0)
            ::close(probeFd);
        ::unlink(QFile::encodeName(probe).constData());
        if (wrote >= 0 || probeErrno != ENOSPC)
            return QStringLiteral("one more byte in %1 did not fail with ENOSPC (%2)")
                .arg(m_path, wrote >= 0 ? QStringLiteral("it was written") : errnoText(probeErrno));
        return {};
    }
    // Frees what fill() took.
    void empty() const { QFile::remove(m_path + QStringLiteral("/filler")); }

private:
    static QString errnoText(int error = errno) { return QString::fromLocal8Bit(std::strerror(error)); }

    // Moves this process (its calling thread, which starts the test's children) into a mount namespace
    // of its own, once, with every mount private: a mount made in it propagates nowhere. Says why that
    // failed, with its errno, or nothing.
    struct Failure {
        QString why;
        int error = 0;
    };
    static const Failure& enterPrivateMountNamespace() {
        static const Failure failure = []() -> Failure {
            if (::unshare(CLONE_NEWNS) != 0) {
                const int error = errno;
                return {QStringLiteral("unshare(CLONE_NEWNS): ") + errnoText(error), error};
            }
            if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
                const int error = errno;
                return {QStringLiteral("making the test's mounts private: ") + errnoText(error), error};
            }
            return {};
        }();
        return failure;
    }

    QString m_path;
    QString m_skip;
    QString m_error;
    bool m_mounted = false;
};

} // namespace la::test

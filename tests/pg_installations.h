// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The PostgreSQL servers the real-server tests run against, found by version: Debian's 15
// (/usr/lib/postgresql/15/bin), the 19 and the backward-combining build (CF 7035) shipped as
// tarballs in ../shared/pg/ and unpacked once into a cache directory, and any bin directories listed
// in LOOKAHEAD_PG_BINDIRS (colon-separated; each names its version with `postgres --version`).
//
// The cache directory must be one the `postgres` user can read when the tests run as root (the
// server runs as that user): /var/cache/lookahead-test-pg for root, owned by root and writable by
// no one else; ${XDG_CACHE_HOME:-~/.cache}/lookahead-test-pg otherwise; LOOKAHEAD_TEST_PG_CACHE
// overrides both. Two tests unpacking at once take turns on a lock file; a tarball is unpacked into
// a fresh directory and renamed into place, so a half-unpacked tree is never used.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QMetaType>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace la::test {

#ifndef LOOKAHEAD_SHARED_PG
#define LOOKAHEAD_SHARED_PG ""
#endif

struct PgInstallation {
    QString name;   // "15", "19", "cf7035", or a LOOKAHEAD_PG_BINDIRS entry's version
    int major = 0;  // 15, 19, 20
    QString binDir; // empty when unavailable
    QString why;    // why it is unavailable (a QSKIP's message), empty when it is not

    bool available() const { return why.isEmpty(); }
};

namespace pg_installations_detail {

inline QString cacheRoot(QString& error) {
    if (const QByteArray own = qgetenv("LOOKAHEAD_TEST_PG_CACHE"); !own.isEmpty())
        return QString::fromLocal8Bit(own);
    if (::geteuid() != 0) {
        const QByteArray xdg = qgetenv("XDG_CACHE_HOME");
        return (xdg.isEmpty() ? QDir::homePath() + QStringLiteral("/.cache") : QString::fromLocal8Bit(xdg)) +
               QStringLiteral("/lookahead-test-pg");
    }
    // Root: a directory the postgres user can enter, which no one else may have planted or change.
    const QString root = QStringLiteral("/var/cache/lookahead-test-pg");
    if (::mkdir(qPrintable(root), 0755) != 0 && errno != EEXIST) {
        error = QStringLiteral("cannot create %1").arg(root);
        return {};
    }
    struct stat st {};
    if (::lstat(qPrintable(root), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
        (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        error = QStringLiteral("%1 is not a directory owned by root and writable by root alone").arg(root);
        return {};
    }
    return root;
}

// What identifies the tarball's contents: its size and modification time.
inline QByteArray stampOf(const QFileInfo& tarball) {
    return QByteArray::number(tarball.size()) + ' ' +
           QByteArray::number(tarball.lastModified().toSecsSinceEpoch()) + '\n';
}

// Unpacks `tarball` (whose top directory is `top`) under the cache once; returns its bin directory.
inline QString unpacked(const QString& tarball, const QString& top, QString& why) {
    const QFileInfo source(tarball);
    if (!source.isFile()) {
        why = QStringLiteral(
                  "%1 is not there (the real-server tests on %2 need ../shared/pg/ beside the clone)")
                  .arg(tarball, top);
        return {};
    }
    QString error;
    const QString root = cacheRoot(error);
    if (root.isEmpty() || !QDir().mkpath(root)) {
        why = QStringLiteral("no cache directory to unpack %1 into: %2").arg(source.fileName(), error);
        return {};
    }
    const QString target = root + QLatin1Char('/') + top;
    const QString stampPath = target + QStringLiteral("/.unpacked-from");
    const QByteArray stamp = stampOf(source);
    const int lock = ::open(qPrintable(root + QStringLiteral("/.lock")), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock < 0 || ::flock(lock, LOCK_EX) != 0) {
        why = QStringLiteral("cannot lock %1/.lock").arg(root);
        if (lock >= 0)
            ::close(lock);
        return {};
    }
    QFile existing(stampPath);
    const bool current = existing.open(QIODevice::ReadOnly) && existing.readAll() == stamp &&
                         QFileInfo(target + QStringLiteral("/bin/postgres")).isExecutable();
    if (!current) {
        QTemporaryDir fresh(root + QStringLiteral("/.unpacking-XXXXXX"));
        QProcess tar;
        tar.start(QStringLiteral("tar"),
                  {QStringLiteral("-xJf"), tarball, QStringLiteral("-C"), fresh.path()});
        const bool ok = fresh.isValid() && tar.waitForFinished(600'000) &&
                        tar.exitStatus() == QProcess::NormalExit && tar.exitCode() == 0;
        QFile stampFile(fresh.path() + QLatin1Char('/') + top + QStringLiteral("/.unpacked-from"));
        if (!ok || !stampFile.open(QIODevice::WriteOnly) || stampFile.write(stamp) != stamp.size()) {
            why = QStringLiteral("cannot unpack %1 into %2: %3")
                      .arg(tarball, root, QString::fromLocal8Bit(tar.readAllStandardError()));
            ::close(lock);
            return {};
        }
        stampFile.close();
        QDir(target).removeRecursively();
        if (::rename(qPrintable(fresh.path() + QLatin1Char('/') + top), qPrintable(target)) != 0) {
            why = QStringLiteral("cannot move the unpacked %1 to %2").arg(top, target);
            ::close(lock);
            return {};
        }
        // QTemporaryDir is created 0700: the postgres user must reach the tree it held.
        ::chmod(qPrintable(target), 0755);
    }
    ::close(lock);
    return target + QStringLiteral("/bin");
}

// "postgres (PostgreSQL) 19beta2" → 19.
inline int majorOf(const QString& binDir) {
    QProcess postgres;
    postgres.start(binDir + QStringLiteral("/postgres"), {QStringLiteral("--version")});
    if (!postgres.waitForFinished(30'000) || postgres.exitCode() != 0)
        return 0;
    const auto match = QRegularExpression(QStringLiteral("\\(PostgreSQL\\) (\\d+)"))
                           .match(QString::fromUtf8(postgres.readAll()));
    return match.hasMatch() ? match.captured(1).toInt() : 0;
}

inline PgInstallation shipped(const QString& name, int major, const QString& tarball, const QString& top) {
    PgInstallation installation{name, major, {}, {}};
    const QString shared = QStringLiteral(LOOKAHEAD_SHARED_PG);
    if (shared.isEmpty()) {
        installation.why =
            QStringLiteral("PostgreSQL %1: the tests were built without LOOKAHEAD_SHARED_PG").arg(name);
        return installation;
    }
    installation.binDir = unpacked(shared + QLatin1Char('/') + tarball, top, installation.why);
    if (!installation.why.isEmpty())
        installation.why = QStringLiteral("PostgreSQL %1 is not available: %2").arg(name, installation.why);
    return installation;
}

} // namespace pg_installations_detail

// Debian's PostgreSQL 15 (packaging/install-deps.sh installs it).
inline PgInstallation debianPg15() {
    PgInstallation installation{QStringLiteral("15"), 15, QStringLiteral("/usr/lib/postgresql/15/bin"), {}};
    if (!QFileInfo(installation.binDir + QStringLiteral("/initdb")).isExecutable())
        installation.why =
            QStringLiteral("postgresql-15 is not installed (packaging/install-deps.sh installs it)");
    return installation;
}

// PostgreSQL 19 beta2 from ../shared/pg/.
inline PgInstallation sharedPg19() {
    return pg_installations_detail::shipped(QStringLiteral("19"), 19,
                                            QStringLiteral("postgresql-19beta2-debian12-x86_64.tar.xz"),
                                            QStringLiteral("19"));
}

// Master with CF 7035 v2 (backward I/O combining) and test_aio, from ../shared/pg/.
inline PgInstallation sharedPgCf7035() {
    return pg_installations_detail::shipped(
        QStringLiteral("cf7035"), 20, QStringLiteral("postgresql-20devel-cf7035-debian12-x86_64.tar.xz"),
        QStringLiteral("20devel-cf7035"));
}

// The released servers the model reproduces (15 and 19), and those LOOKAHEAD_PG_BINDIRS adds, each
// with why it is unavailable where it is. The test data of a real-server test has one row per entry.
inline QList<PgInstallation> pgInstallations() {
    QList<PgInstallation> all{debianPg15(), sharedPg19()};
    for (const QString& dir : QString::fromLocal8Bit(qgetenv("LOOKAHEAD_PG_BINDIRS"))
                                  .split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        const int major = pg_installations_detail::majorOf(dir);
        PgInstallation extra{QStringLiteral("%1 (%2)").arg(major).arg(dir), major, dir, {}};
        if (major == 0)
            extra.why =
                QStringLiteral("LOOKAHEAD_PG_BINDIRS names %1, whose postgres --version failed").arg(dir);
        all.append(extra);
    }
    return all;
}

// The test data of a real-server case: column "installation", a row per server.
inline void addInstallationRows() {
    QTest::addColumn<PgInstallation>("installation");
    for (const PgInstallation& installation : pgInstallations())
        QTest::newRow(qPrintable(installation.name)) << installation;
}

} // namespace la::test

// A row of a test's data: one server.
Q_DECLARE_METATYPE(la::test::PgInstallation)

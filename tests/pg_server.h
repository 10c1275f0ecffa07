// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A throwaway PostgreSQL server for tests: initdb in a temporary directory as the `postgres` user
// (PostgreSQL refuses to run as root), reachable only through a Unix socket in that directory. The
// destructor stops the server and removes the directory, on every path out of a test. Debian's 15
// unless another installation is given (pg_installations.h: the 19 of ../shared/pg/, …).

#include "pg_installations.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryDir>

#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace la::test {

class PgServer {
public:
    // Why a server of `installation` cannot be started here, or empty.
    static QString unavailable(const PgInstallation& installation = debianPg15()) {
        if (!installation.available())
            return installation.why;
        if (::geteuid() == 0 && !::getpwnam("postgres"))
            return QStringLiteral("running as root and there is no postgres user to run the server as");
        return {};
    }

    explicit PgServer(PgInstallation installation = debianPg15()) : m_installation(std::move(installation)) {}
    PgServer(const PgServer&) = delete;
    PgServer& operator=(const PgServer&) = delete;
    ~PgServer() { stop(); }

    // initdb (with data checksums if asked), configure (with `settings`, postgresql.conf lines, last)
    // and start. Returns an error message, empty on success.
    QString start(bool dataChecksums = false, const QString& settings = {}) {
        if (!m_dir.isValid())
            return QStringLiteral("no temporary directory");
        m_port = freePort();
        if (const passwd* pg = ::getpwnam("postgres"); pg && ::geteuid() == 0) {
            if (::chown(qPrintable(m_dir.path()), pg->pw_uid, pg->pw_gid) != 0)
                return QStringLiteral("chown: ") + QString::fromLocal8Bit(std::strerror(errno));
        }
        QStringList initdb{QStringLiteral("-D"),        dataDir(),
                           QStringLiteral("-A"),        QStringLiteral("trust"),
                           QStringLiteral("-U"),        QStringLiteral("postgres"),
                           QStringLiteral("--no-sync"), QStringLiteral("--no-instructions")};
        if (dataChecksums)
            initdb << QStringLiteral("--data-checksums");
        QString error = asPostgres(binDir() + QStringLiteral("/initdb"), initdb);
        if (!error.isEmpty())
            return error;
        QFile conf(dataDir() + QStringLiteral("/postgresql.conf"));
        if (!conf.open(QIODevice::Append))
            return QStringLiteral("cannot append to postgresql.conf");
        // Socket only, nothing that reads the relation behind the test's back (autovacuum, parallel
        // workers), no fsync cost.
        conf.write(QStringLiteral("listen_addresses = ''\nunix_socket_directories = '%1'\nport = %2\n"
                                  "autovacuum = off\nmax_parallel_workers_per_gather = 0\nfsync = off\n"
                                  "shared_buffers = 128MB\n%3\n")
                       .arg(m_dir.path())
                       .arg(m_port)
                       .arg(settings)
                       .toUtf8());
        conf.close();
        return pgCtl(QStringLiteral("start"));
    }

    QString restart() { return pgCtl(QStringLiteral("restart")); }

    void stop() {
        if (m_running)
            pgCtl(QStringLiteral("stop"), QStringLiteral("immediate"));
    }

    const PgInstallation& installation() const { return m_installation; }
    QString binDir() const { return m_installation.binDir; }
    int major() const { return m_installation.major; }
    QString dataDir() const { return m_dir.path() + QStringLiteral("/data"); }
    QString socketDir() const { return m_dir.path(); }
    int port() const { return m_port; }

    // psql's arguments for a session to database postgres (the program is psqlProgram()).
    QString psqlProgram() const { return binDir() + QStringLiteral("/psql"); }
    QStringList psqlArgs() const {
        return {QStringLiteral("-X"), QStringLiteral("-q"),
                QStringLiteral("-A"), QStringLiteral("-t"),
                QStringLiteral("-v"), QStringLiteral("ON_ERROR_STOP=1"),
                QStringLiteral("-h"), socketDir(),
                QStringLiteral("-p"), QString::number(m_port),
                QStringLiteral("-U"), QStringLiteral("postgres"),
                QStringLiteral("-d"), QStringLiteral("postgres")};
    }

    // Runs SQL in a new session; returns its output, or sets `error`.
    QString sql(const QString& text, QString& error) const {
        QProcess psql;
        psql.start(psqlProgram(), psqlArgs() + QStringList{QStringLiteral("-c"), text});
        if (!psql.waitForFinished(300'000) || psql.exitStatus() != QProcess::NormalExit ||
            psql.exitCode() != 0) {
            error = QStringLiteral("psql failed: ") + QString::fromUtf8(psql.readAllStandardError());
            return {};
        }
        return QString::fromUtf8(psql.readAllStandardOutput()).trimmed();
    }

    // SQL whose failure the test's later checks reveal: its output, the error (if any) logged.
    QString sqlLogged(const QString& text) const {
        QString error;
        const QString out = sql(text, error);
        if (!error.isEmpty())
            qWarning("%s", qPrintable(error));
        return out;
    }

    // The conninfo a recording connects with: database postgres over the socket, as `user`.
    QString conninfo(const QString& user = QStringLiteral("postgres")) const {
        return QStringLiteral("host=%1 port=%2 dbname=postgres user=%3")
            .arg(socketDir())
            .arg(m_port)
            .arg(user);
    }

    // The recording tests' table: r(id int, pad text) of `rows` rows of 200 bytes (with index r_id on id
    // when `indexed`), frozen and checkpointed: no hint bits left to set (a scan that sets them dirties
    // its buffers, and a ring rejects a dirty buffer whose WAL is not flushed yet), all of it on disk.
    // Its size in blocks, 0 where it failed (the error logged).
    int frozenTable(int rows, bool indexed) const {
        sqlLogged(QStringLiteral("CREATE TABLE r(id int, pad text); "
                                 "INSERT INTO r SELECT g, repeat('x', 200) FROM generate_series(1, %1) g")
                      .arg(rows) +
                  (indexed ? QStringLiteral("; CREATE INDEX r_id ON r(id)") : QString()));
        sqlLogged(QStringLiteral("VACUUM FREEZE r"));
        sqlLogged(QStringLiteral("CHECKPOINT"));
        return sqlLogged(QStringLiteral("SELECT pg_relation_size('r') / 8192")).toInt();
    }

    // Builds tables with `sql`, then freezes and analyzes `table` and checkpoints: the plan tests'
    // tables, each on disk with no hint bits left to set and statistics the planner reads.
    void buildFrozen(const QString& sql, const QString& table) const {
        sqlLogged(sql);
        sqlLogged(QStringLiteral("VACUUM (FREEZE, ANALYZE) %1").arg(table));
        sqlLogged(QStringLiteral("CHECKPOINT"));
    }

    // The window tests' table: t(a int8, pad text) of 20,000 rows in hash order (each key on another
    // block than the last) with a btree idx on a, checkpointed. Returns the paths of its heap and
    // index under the data directory (pg_relation_filepath), or sets `error`.
    struct IndexedTable {
        QString heap;
        QString index;
    };
    IndexedTable hashClusteredTable(QString& error) const {
        sql(QStringLiteral("CREATE TABLE t(a int8, pad text); "
                           "INSERT INTO t SELECT i, repeat('x', 200) FROM generate_series(1, 20000) i "
                           "ORDER BY hashint8(i); CREATE INDEX idx ON t(a); CHECKPOINT"),
            error);
        if (!error.isEmpty())
            return {};
        IndexedTable table;
        table.heap = sql(QStringLiteral("SELECT pg_relation_filepath('t')"), error);
        table.index = sql(QStringLiteral("SELECT pg_relation_filepath('idx')"), error);
        return table;
    }
    // start(), then hashClusteredTable(): the prologue of the tests that read a real index. `error` is
    // empty when both went well.
    struct StartedTable {
        QString heap;
        QString index;
        QString error;
    };
    StartedTable startWithHashClusteredTable() {
        StartedTable started;
        started.error = start();
        if (started.error.isEmpty()) {
            const IndexedTable table = hashClusteredTable(started.error);
            started.heap = table.heap;
            started.index = table.index;
        }
        return started;
    }

    // What traces the server: its processes (the postmaster and its children) that a tracer is
    // attached to, as "PID traced by TRACER", and Lookahead's kernel tracer instances in tracefs
    // (docs/trace-import.md §2.4), as "tracefs instance NAME". Empty when nothing is, whatever else
    // on the machine is traced. The tests run one at a time, so an instance there is the test's.
    QStringList tracedProcesses() const {
        QFile pidFile(dataDir() + QStringLiteral("/postmaster.pid"));
        if (!pidFile.open(QIODevice::ReadOnly))
            return {};
        const QString postmaster = QString::fromLatin1(pidFile.readLine().trimmed());
        QStringList traced;
        for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            QFile status(QStringLiteral("/proc/%1/status").arg(pid));
            if (!status.open(QIODevice::ReadOnly))
                continue;
            QString parent, tracer;
            for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine()) {
                if (line.startsWith("PPid:"))
                    parent = QString::fromLatin1(line.mid(5).trimmed());
                if (line.startsWith("TracerPid:"))
                    tracer = QString::fromLatin1(line.mid(10).trimmed());
            }
            if ((pid == postmaster || parent == postmaster) && !tracer.isEmpty() &&
                tracer != QLatin1String("0")) {
                // Who traces it, for the message: its command line.
                QFile command(QStringLiteral("/proc/%1/cmdline").arg(tracer));
                const QByteArray words = command.open(QIODevice::ReadOnly) ? command.readAll() : QByteArray();
                traced << QStringLiteral("%1 traced by %2 (%3)")
                              .arg(pid, tracer, QString::fromLocal8Bit(words).replace(QChar(0), QChar(' ')));
            }
        }
        for (const QString& instance : QDir(QStringLiteral("/sys/kernel/tracing/instances"))
                                           .entryList({QStringLiteral("lookahead-*")}, QDir::Dirs))
            traced << QStringLiteral("tracefs instance ") + instance;
        return traced;
    }

    // Evicts the data directory's files from the OS page cache, so reads reach the device: all of
    // the cache when running as root, else each file of the cluster.
    void dropOsCache() const {
        if (QFile drop(QStringLiteral("/proc/sys/vm/drop_caches"));
            ::geteuid() == 0 && drop.open(QIODevice::WriteOnly)) {
            ::sync();
            drop.write("3\n");
        }
        evictTree(dataDir());
    }

private:
    static int freePort() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        int port = 54329;
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            port = ntohs(address.sin_port);
        if (fd >= 0)
            ::close(fd);
        return port;
    }

    static void evictTree(const QString& dir) {
        for (const QFileInfo& entry :
             QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (entry.isDir()) {
                evictTree(entry.filePath());
                continue;
            }
            const int fd = ::open(qPrintable(entry.filePath()), O_RDONLY | O_CLOEXEC);
            if (fd >= 0) {
                ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
                ::close(fd);
            }
        }
    }

    QString pgCtl(const QString& action, const QString& mode = QStringLiteral("fast")) {
        const QString error = asPostgres(binDir() + QStringLiteral("/pg_ctl"),
                                         {QStringLiteral("-D"), dataDir(), QStringLiteral("-l"),
                                          m_dir.path() + QStringLiteral("/server.log"), QStringLiteral("-m"),
                                          mode, QStringLiteral("-w"), action});
        m_running = action != QStringLiteral("stop") && error.isEmpty();
        return error;
    }

    // Runs a server program as the postgres user (runuser when we are root).
    QString asPostgres(const QString& program, const QStringList& args) const {
        QProcess process;
        process.setWorkingDirectory(m_dir.path()); // a directory the postgres user can enter
        if (::geteuid() == 0)
            process.start(
                QStringLiteral("runuser"),
                QStringList{QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--"), program} +
                    args);
        else
            process.start(program, args);
        if (!process.waitForFinished(300'000) || process.exitStatus() != QProcess::NormalExit ||
            process.exitCode() != 0)
            return QFileInfo(program).fileName() + QStringLiteral(" failed: ") +
                   QString::fromUtf8(process.readAllStandardError() + process.readAllStandardOutput());
        return {};
    }

    PgInstallation m_installation;
    QTemporaryDir m_dir{QDir::tempPath() + QStringLiteral("/lookahead-pg-XXXXXX")};
    int m_port = 0;
    bool m_running = false;
};

// The heap blocks in a server's comma-separated list of ctid blocks, in order, a block visited again
// at once counted once, as the readers hand them out.
inline std::vector<std::uint32_t> visitedBlocks(const QString& csv) {
    std::vector<std::uint32_t> blocks;
    for (const QString& item : csv.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto block = static_cast<std::uint32_t>(item.toUInt());
        if (blocks.empty() || blocks.back() != block)
            blocks.push_back(block);
    }
    return blocks;
}

} // namespace la::test

// Skips a case whose server `installation` is not here; where CI has every server
// (LOOKAHEAD_REQUIRE_SERVERS) a missing one is a failure, not a skip that passes.
#define LA_SKIP_WITHOUT_SERVER(installation)                                                                 \
    do {                                                                                                     \
        if (const QString why = ::la::test::PgServer::unavailable(installation); !why.isEmpty()) {           \
            if (qEnvironmentVariableIsSet("LOOKAHEAD_REQUIRE_SERVERS"))                                      \
                QFAIL(qPrintable(why));                                                                      \
            QSKIP(qPrintable(why));                                                                          \
        }                                                                                                    \
    } while (0)

// Skips a recording case where no tracer can run: the kernel tracer needs root, strace must be installed.
#define LA_SKIP_WITHOUT_TRACER()                                                                             \
    do {                                                                                                     \
        if (::geteuid() != 0 && QStandardPaths::findExecutable(QStringLiteral("strace")).isEmpty())          \
            QSKIP("no tracer: the kernel tracer needs root, and strace is not installed");                   \
    } while (0)

namespace la::test {

// A recording test's init(): the server of the case's data row, `installation`, started into `server`;
// the case skipped where that server or a tracer is missing.
inline void startRowServer(std::unique_ptr<PgServer>& server, const PgInstallation& installation) {
    LA_SKIP_WITHOUT_SERVER(installation);
    LA_SKIP_WITHOUT_TRACER();
    server = std::make_unique<PgServer>(installation);
    const QString started = server->start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
}

// Its cleanup(): the server stopped, and the case failed if a recording left any of its processes traced.
inline void stopRowServer(std::unique_ptr<PgServer>& server) {
    if (!server)
        return;
    const QStringList traced = server->tracedProcesses();
    server.reset();
    QVERIFY2(traced.isEmpty(), qPrintable(traced.join(QLatin1Char(','))));
}

} // namespace la::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/server_facts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace la {

namespace {

// A setting's value as pg_settings gives it, or empty where the server has no such setting.
QString setting(PgSession& session, const QString& name) {
    return session.value(QStringLiteral("SELECT setting FROM pg_settings WHERE name = $1"), {name},
                         QStringLiteral("reading the setting ") + name);
}

int settingInt(PgSession& session, const QString& name) {
    return setting(session, name).toInt();
}

} // namespace

QJsonObject ServerFacts::json() const {
    return QJsonObject{{QStringLiteral("server_version"), version},
                       {QStringLiteral("server_version_num"), versionNum},
                       {QStringLiteral("io_method"), ioMethod},
                       {QStringLiteral("effective_io_concurrency"), effectiveIoConcurrency},
                       {QStringLiteral("io_combine_limit"), ioCombineLimit},
                       {QStringLiteral("shared_buffers_blocks"), qint64(sharedBufferBlocks)},
                       {QStringLiteral("max_connections"), maxConnections},
                       {QStringLiteral("block_size"), blockSize},
                       {QStringLiteral("data_directory"), dataDirectory},
                       {QStringLiteral("local"), local}};
}

ServerFacts readServerFacts(PgSession& session) {
    ServerFacts facts;
    facts.version =
        session.value(QStringLiteral("SHOW server_version"), {}, QStringLiteral("reading the version"));
    facts.versionNum = settingInt(session, QStringLiteral("server_version_num"));
    facts.blockSize = settingInt(session, QStringLiteral("block_size"));
    if (facts.blockSize != 8192)
        throw RecordError(
            QStringLiteral("the server's block size is %1 bytes: Lookahead models 8 kB blocks "
                           "only (PostgreSQL's default); record on a server built with 8 kB blocks")
                .arg(facts.blockSize));
    if (const QString method = setting(session, QStringLiteral("io_method")); !method.isEmpty())
        facts.ioMethod = method;
    facts.effectiveIoConcurrency = settingInt(session, QStringLiteral("effective_io_concurrency"));
    facts.ioCombineLimit = settingInt(session, QStringLiteral("io_combine_limit"));
    // pg_settings gives shared_buffers in its unit, 8 kB blocks.
    facts.sharedBufferBlocks = setting(session, QStringLiteral("shared_buffers")).toULongLong();
    facts.maxConnections = settingInt(session, QStringLiteral("max_connections"));
    facts.synchronizeSeqscans =
        setting(session, QStringLiteral("synchronize_seqscans")) == QLatin1String("on");
    // Visible to superusers and pg_read_all_settings only.
    facts.dataDirectory = setting(session, QStringLiteral("data_directory"));
    if (facts.dataDirectory.isEmpty()) {
        facts.whyNotLocal =
            QStringLiteral("this role may not see data_directory (it needs pg_read_all_settings)");
        return facts;
    }
    QFile pidFile(QDir(facts.dataDirectory).filePath(QStringLiteral("postmaster.pid")));
    if (!pidFile.open(QIODevice::ReadOnly)) {
        facts.whyNotLocal = QStringLiteral("its data directory %1 is not readable here: the server runs on "
                                           "another machine, or as a user whose files we may not read")
                                .arg(facts.dataDirectory);
        return facts;
    }
    facts.postmasterPid = pidFile.readLine(32).trimmed().toLongLong();
    if (facts.postmasterPid <= 0 || !QFileInfo::exists(QStringLiteral("/proc/%1").arg(facts.postmasterPid))) {
        facts.whyNotLocal =
            QStringLiteral("its postmaster (pid %1 in postmaster.pid) is not a process of this machine")
                .arg(facts.postmasterPid);
        return facts;
    }
    facts.local = true;
    return facts;
}

std::vector<qint64> ioWorkerPids(PgSession& session) {
    std::vector<qint64> pids;
    for (const QStringList& row :
         session.query(QStringLiteral("SELECT pid FROM pg_stat_activity WHERE backend_type = 'io worker'"),
                       {}, QStringLiteral("listing the I/O workers")))
        pids.push_back(row.value(0).toLongLong());
    return pids;
}

} // namespace la

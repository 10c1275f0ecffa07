// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/pg_session.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <vector>

namespace la {

// What a recording needs to know of the server, read through its own connection.
struct ServerFacts {
    QString version; // "15.20 (Debian 15.20-0+deb12u1)"
    int versionNum = 0;
    QString ioMethod = QStringLiteral("sync"); // before 18: PostgreSQL read with plain reads
    int effectiveIoConcurrency = 0;
    int ioCombineLimit = 0;               // blocks; 0 before 17 (no read stream)
    std::uint64_t sharedBufferBlocks = 0; // shared_buffers in 8 kB buffers
    int maxConnections = 0;               // for the pins a backend may hold, and so the BULKREAD ring
    int blockSize = 0;
    bool synchronizeSeqscans = true;
    QString dataDirectory; // empty when this role may not see it
    // The server runs on this machine: its data directory is readable here and its postmaster is a
    // process we can see.
    bool local = false;
    qint64 postmasterPid = 0;
    QString whyNotLocal;

    int major() const { return versionNum / 10000; }
    QJsonObject json() const;
};

// Throws RecordError for a server Lookahead cannot model (a block size other than 8 kB).
ServerFacts readServerFacts(PgSession& session);

// The server's I/O workers (PostgreSQL 18+, io_method = worker), by pg_stat_activity.
std::vector<qint64> ioWorkerPids(PgSession& session);

} // namespace la

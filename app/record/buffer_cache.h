// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/pg_session.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace la {

// PostgreSQL's shared buffers seen and changed through pg_buffercache, for one database, where the
// extension is installed: a recording never installs it (docs/recording.md, "What record runs on the
// server").
class BufferCache {
public:
    BufferCache(PgSession& session, int serverMajor);
    BufferCache(const BufferCache&) = delete;
    BufferCache& operator=(const BufferCache&) = delete;

    // pg_buffercache can be read; else why not and what to do.
    bool available() const { return m_available; }
    const QString& whyUnavailable() const { return m_why; }

    // The relation's main-fork blocks in shared buffers, ascending.
    std::vector<std::uint32_t> residentBlocks(const QString& relationOid);
    // Evicts the relation's buffers but `keep` (ascending) where the server can (PostgreSQL 17+,
    // pg_buffercache_evict); false where it cannot, `why` then says so.
    bool evict(const QString& relationOid, const std::vector<std::uint32_t>& keep, QString& why);
    // Drops pg_buffercache if a recording of an earlier Lookahead created it (marked by its comment) and
    // that session is gone (it was killed before it could drop it); what was done, in words, or empty.
    // Errors are returned, not thrown.
    static QString removeLeftover(PgSession& session);

private:
    PgSession& m_session;
    int m_major;
    bool m_available = false;
    QString m_why;
};

} // namespace la

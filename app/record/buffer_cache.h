// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/pg_session.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace la {

// PostgreSQL's shared buffers seen and changed through pg_buffercache, for one database. Creates
// the extension if it is missing and the role may, and drops it again when done: a recording leaves
// the server as it found it. The extension it creates carries a comment naming the session that
// created it, so that one left behind by a recording that was killed is known for ours and dropped
// by the next (removeLeftover()).
class BufferCache {
public:
    BufferCache(PgSession& session, int serverMajor);
    ~BufferCache();
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
    // Drops the extension if this object created it. Errors are returned, not thrown.
    QString restore();

    // Drops pg_buffercache if a recording created it and its session is gone (it was killed before
    // it could drop it); what was done, in words, or empty. Errors are returned the same way.
    static QString removeLeftover(PgSession& session);

private:
    PgSession& m_session;
    int m_major;
    bool m_available = false;
    bool m_created = false;
    QString m_why;
};

} // namespace la

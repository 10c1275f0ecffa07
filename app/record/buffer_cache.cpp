// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/buffer_cache.h"

#include <algorithm>

namespace la {

namespace {

// The relation's buffers in this database, main fork: relfilenode alone repeats across databases.
const char* const kRelationBuffers =
    "FROM pg_buffercache WHERE relfilenode = pg_relation_filenode($1::oid::regclass) AND relforknumber = 0 "
    "AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())";

// The comment on the extension a recording of an earlier Lookahead created (recordings no longer create
// one): the pid of the session that created it follows.
const QString kCreatedMark =
    QStringLiteral("created by lookahead record, dropped when it ends; session pid ");

} // namespace

QString BufferCache::removeLeftover(PgSession& session) {
    const QString comment = session.value(
        QStringLiteral("SELECT obj_description(oid, 'pg_extension') FROM pg_extension WHERE extname = "
                       "'pg_buffercache'"),
        {}, QStringLiteral("looking for an extension a recording left behind"));
    if (!comment.startsWith(kCreatedMark))
        return {};
    const QString pid = comment.mid(kCreatedMark.size()).trimmed();
    if (!session.value(QStringLiteral("SELECT 1 FROM pg_stat_activity WHERE pid = $1::int"), {pid}).isEmpty())
        return {}; // that recording is still under way
    try {
        session.query(QStringLiteral("DROP EXTENSION pg_buffercache"), {},
                      QStringLiteral("dropping the extension pg_buffercache a recording left behind"));
    } catch (const RecordError& error) {
        return error.message();
    }
    return QStringLiteral(
               "dropped the extension pg_buffercache, created by a recording (session pid %1) that "
               "was killed before it could drop it")
        .arg(pid);
}

BufferCache::BufferCache(PgSession& session, int serverMajor) : m_session(session), m_major(serverMajor) {
    // Only an extension already installed is read: creating one writes the database's catalog and WAL.
    if (m_session.value(QStringLiteral("SELECT 1 FROM pg_extension WHERE extname = 'pg_buffercache'"))
            .isEmpty()) {
        m_why = QStringLiteral(
            "pg_buffercache is not installed in this database, and record never installs it (that would "
            "write to the database): the cache state at the start is derived from the trace, and --cold "
            "cannot empty shared buffers; a superuser can run CREATE EXTENSION pg_buffercache (it ships "
            "with PostgreSQL's contrib) to have them read");
        return;
    }
    try {
        m_session.query(QStringLiteral("SELECT 1 FROM pg_buffercache LIMIT 1"), {},
                        QStringLiteral("reading pg_buffercache"));
        m_available = true;
    } catch (const RecordError& error) {
        m_why = QStringLiteral("%1: grant this role pg_monitor to read shared buffers; until then the cache "
                               "state at the start is derived from the trace")
                    .arg(error.message());
    }
}

std::vector<std::uint32_t> BufferCache::residentBlocks(const QString& relationOid) {
    std::vector<std::uint32_t> blocks;
    for (const QStringList& row :
         m_session.query(QStringLiteral("SELECT relblocknumber ") + QLatin1String(kRelationBuffers) +
                             QStringLiteral(" ORDER BY 1"),
                         {relationOid}, QStringLiteral("reading pg_buffercache")))
        blocks.push_back(row.value(0).toUInt());
    return blocks;
}

bool BufferCache::evict(const QString& relationOid, const std::vector<std::uint32_t>& keep, QString& why) {
    if (m_major < 17) {
        why = QStringLiteral(
                  "PostgreSQL %1 cannot evict a relation's buffers while it runs (pg_buffercache_evict "
                  "came in 17): only a restart empties them")
                  .arg(m_major);
        return false;
    }
    QStringList kept;
    for (const std::uint32_t block : keep)
        kept << QString::number(block);
    m_session.query(QStringLiteral("SELECT pg_buffercache_evict(bufferid) ") +
                        QLatin1String(kRelationBuffers) +
                        QStringLiteral(" AND NOT relblocknumber = ANY ($2::int8[])"),
                    {relationOid, QLatin1Char('{') + kept.join(QLatin1Char(',')) + QLatin1Char('}')},
                    QStringLiteral("evicting the relation's buffers"));
    return true;
}

} // namespace la

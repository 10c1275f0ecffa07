// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/server_connections.h"

#include "capture/tracefs.h"
#include "record/buffer_cache.h"
#include "record/recording_log.h"

namespace la {

ServerConnections::ServerConnections(const QString& conninfo, const QString& password,
                                     const std::atomic<bool>* cancel, RecordingLog& log)
    : control(conninfo, password, cancel), session(conninfo, password, cancel) {
    for (PgSession* connection : {&control, &session})
        connection->setNoticeHandler(
            [&log](const QString& notice) { log.note(QStringLiteral("the server said: ") + notice); });
    control.setCancel(nullptr);
    removeLeftovers(control, log);
}

void removeLeftovers(PgSession& control, RecordingLog& log) {
    for (const QString& instance : tracefs::removeStaleInstances())
        log.note(QStringLiteral("removed the tracefs instance %1, left behind by a capture or recording that "
                                "was killed: it went on tracing until now")
                     .arg(instance));
    if (const QString dropped = BufferCache::removeLeftover(control); !dropped.isEmpty())
        log.note(dropped);
}

void applyQuerySettings(PgSession& session, const QStringList& settings) {
    session.query(QStringLiteral("SET max_parallel_workers_per_gather = 0"));
    session.query(QStringLiteral("SET synchronize_seqscans = off"));
    for (const QString& setting : settings) {
        const qsizetype equals = setting.indexOf(QLatin1Char('='));
        if (equals <= 0)
            throw RecordError(
                QStringLiteral("--set %1: expected NAME=VALUE, e.g. enable_bitmapscan=off").arg(setting));
        session.query(QStringLiteral("SELECT set_config($1, $2, false)"),
                      {setting.left(equals).trimmed(), setting.mid(equals + 1).trimmed()},
                      QStringLiteral("--set ") + setting);
    }
    // No setting may have taken the transaction out of read-only mode.
    if (session.value(QStringLiteral("SELECT current_setting('transaction_read_only')")) !=
        QLatin1String("on"))
        throw RecordError(QStringLiteral("the query session's transaction is not read-only after the --set "
                                         "settings: record runs the query only in a read-only transaction"));
}

} // namespace la

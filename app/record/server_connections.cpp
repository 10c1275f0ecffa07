// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/server_connections.h"

#include "capture/tracefs.h"
#include "record/buffer_cache.h"
#include "record/recording_log.h"

namespace la {

ServerConnections::ServerConnections(const QString& conninfo, const QString& password,
                                     const std::atomic<bool>* cancel, RecordingLog& log)
    : control(conninfo, password, cancel), session(conninfo, password, cancel), recordingCancel(cancel) {
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

void applySettings(PgSession& session, const QStringList& settings, SettingScope scope) {
    const QString isLocal =
        scope == SettingScope::Transaction ? QStringLiteral("true") : QStringLiteral("false");
    for (const QString& setting : settings) {
        const qsizetype equals = setting.indexOf(QLatin1Char('='));
        if (equals <= 0)
            throw RecordError(
                QStringLiteral("--set %1: expected NAME=VALUE, e.g. enable_bitmapscan=off").arg(setting));
        session.query(QStringLiteral("SELECT set_config($1, $2, $3::boolean)"),
                      {setting.left(equals).trimmed(), setting.mid(equals + 1).trimmed(), isLocal},
                      QStringLiteral("--set ") + setting);
    }
    // No setting may have taken the transaction out of read-only mode.
    if (session.value(QStringLiteral("SELECT current_setting('transaction_read_only')")) !=
        QLatin1String("on"))
        throw RecordError(QStringLiteral("the transaction is not read-only after the --set settings: record "
                                         "runs its queries only in read-only transactions"));
}

void applyQuerySettings(PgSession& session, const QStringList& settings) {
    session.query(QStringLiteral("SET max_parallel_workers_per_gather = 0"));
    session.query(QStringLiteral("SET synchronize_seqscans = off"));
    applySettings(session, settings, SettingScope::Session);
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/pg_session.h"

#include <QString>
#include <QStringList>

#include <atomic>

namespace la {

class RecordingLog;

// A recording's two connections to the server: the query's, whose backend is traced, and one for
// everything else, whose catalog reads and snapshots stay out of the trace. A server's notices (a
// function's RAISE NOTICE) are the recording's notes. What an earlier recording killed before it
// could clean up left behind is removed on connecting.
struct ServerConnections {
    ServerConnections(const QString& conninfo, const QString& password, const std::atomic<bool>* cancel,
                      RecordingLog& log);

    // Not cancelled but where a CancelScope says (its long queries): its clean-up must run after a Cancel.
    PgSession control;
    PgSession session;
    const std::atomic<bool>* recordingCancel;
};

// What a recording killed before it could clean up left behind (a tracefs instance that goes on
// tracing; pg_buffercache as an earlier Lookahead created it), removed, each said as a note.
void removeLeftovers(PgSession& control, RecordingLog& log);

// Whether a setting holds for the session or for the transaction it is in only.
enum class SettingScope { Session, Transaction };

// Applies each NAME=VALUE of `settings` ("enable_bitmapscan=off", the user's --set) on `session`, which
// is in a read-only transaction. Throws RecordError for a setting that is not NAME=VALUE, one the server
// refuses, or one that took the transaction out of read-only mode.
void applySettings(PgSession& session, const QStringList& settings, SettingScope scope);

// Readies the query's session, inside its read-only transaction: one process reads the relation,
// in block order, under the user's `settings` (applySettings()).
void applyQuerySettings(PgSession& session, const QStringList& settings);

} // namespace la

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

    PgSession control; // not cancelled: its statements are short, and its clean-up must run after a Cancel
    PgSession session;
};

// What a recording killed before it could clean up left behind (a tracefs instance that goes on
// tracing, the extension it created), removed, each said as a note.
void removeLeftovers(PgSession& control, RecordingLog& log);

// Readies the query's session, inside its read-only transaction: one process reads the relation,
// in block order, under the user's `settings` ("enable_bitmapscan=off"). Throws RecordError for a
// setting that is not NAME=VALUE, or one that took the transaction out of read-only mode.
void applyQuerySettings(PgSession& session, const QStringList& settings);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace la {

class BufferCache;
class PgSession;
class RecordingLog;
struct CacheSnapshot;

// The query's run untraced, from the cache state of the traced run's start: tracing slows the server
// down and changes its waits, so PostgreSQL's figures come from this run where there is one.
struct UntracedRun {
    QString plan;    // empty: the query was not run again
    QString whyNone; // why the tracing overhead is not measured, or empty
};

// Brings the relations' buffers back to `snapshot` (and, with `cold`, empties `files`' OS cache
// again) and runs `analyze` on the query's session. Not where nothing was traced or pg_buffercache
// cannot be read, nor where the buffers cannot be brought back: said as a note.
UntracedRun runUntraced(PgSession& session, const QString& analyze, bool traced, BufferCache& buffers,
                        const CacheSnapshot& snapshot, bool cold, const QStringList& files,
                        RecordingLog& log);

// "recorded"'s "tracing_overhead": the traced and the untraced run's execution times, said as a note,
// or why they are not measured.
QJsonObject tracingOverhead(const QString& tracedPlan, const UntracedRun& untraced, RecordingLog& log);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capture/tracer.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace la {

class HeldDirectory;
class PgSession;
class RecordingLog;
struct ServerConnections;
struct ServerFacts;

// The query's run under a tracer: its plan (EXPLAIN ANALYZE), and the trace of its reads.
struct TracedRun {
    std::optional<TracerKind> tracer; // nothing: the server's processes could not be traced from here
    QString tracePath;                // "query.trace" in the work directory, once there is a tracer
    QString plan;
};

// Runs `analyze` on the query's session with the server's processes traced where they are on this
// machine: its backend, and its I/O workers (18+, io_method = worker). The tracer is `asked`, or
// chosen (docs/recording.md). On every path out no tracer stays attached. Throws RecordError.
TracedRun runTraced(std::optional<TracerKind> asked, const ServerFacts& facts, ServerConnections& connections,
                    const QStringList& files, const HeldDirectory& work, const QString& analyze,
                    RecordingLog& log);

// Whether the trace shows reads of `file` (a path's last components) that its import takes: a query
// whose blocks were all in shared buffers reads nothing, and has no observed run to show.
bool traceReads(const QString& tracePath, const QString& file);

} // namespace la

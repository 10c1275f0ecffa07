// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/recorded_scan.h"

#include <QString>
#include <QStringList>

namespace la {

class RecordingLog;
struct ServerFacts;

// The model's policy by default: the server's own read stream, or PostgreSQL 19's before 17 had one.
QString defaultPolicy(int serverMajor);

// The options that replay the traced run against the model (--import-trace with the trace, the
// query's backend and plan), or the model alone where the server read nothing traced.
QStringList replayedRunArgs(bool observed, const QString& tracePath, const RecordedRelation& heap,
                            qint64 backendPid, const QString& planFile, const QString& policy);

// The server's settings the model takes: shared_buffers, effective_io_concurrency, … Where the server
// has no read stream (before 17), what the model shows instead is said as notes.
QStringList serverArgs(const ServerFacts& facts, const QString& policy, const RecordedScan& scan,
                       RecordingLog& log);

} // namespace la

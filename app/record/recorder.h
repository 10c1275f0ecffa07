// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capture/tracer.h"
#include "record/pg_session.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace la {

// What to record (docs/recording.md): a query on a server, and how.
struct RecordRequest {
    QString conninfo; // as psql takes it; the PG* environment fills in the rest
    QString password; // the window's password field: never stored, never shown
    QString query;
    bool cold = false;     // empty the relation's buffers and OS cache first, where the server can
    QString comparePolicy; // the model's policy; empty: the server version's own (pg19 before 17)
    QString visitsQuery;   // SQL giving the scan's visits (ctids or block numbers), or empty
    // The plan node the model runs (--node, its node_id); nothing: chosen (docs/recording.md, "Plans").
    std::optional<int> node;
    // Settings for the query's session ("enable_bitmapscan=off"): the plan to record.
    QStringList settings;
    // An existing directory of ours, that nobody else can write or move (core/files/held_directory.h):
    // the trace, plan, visits and snapshot go there, written relative to its descriptor.
    QString workDirectory;
    // Nothing: choose (docs/recording.md): the kernel's tracepoints for io_method = io_uring, whose
    // reads no syscall trace sees, else strace, which sees every read PostgreSQL makes, cached in
    // the OS or not.
    std::optional<TracerKind> tracer;
};

struct RecordCallbacks {
    // A step begins ("connecting", "running the query, traced", …).
    std::function<void(const QString& step)> step;
    std::function<void(const QString& note)> note;
    const std::atomic<bool>* cancel = nullptr;
};

struct Recording {
    // The Lookahead options that replay the recording: --import-trace with the trace, its visits,
    // cache snapshot, EXPLAIN and the server's settings (a model run alone for a remote server).
    QStringList replayArgs;
    // The summary JSON's and the session's "recorded" object.
    QJsonObject recorded;
};

// Records `request.query`: the server's facts, the plan, the cache at the start, the query run
// traced and untraced. Only a query that reads is run, in a read-only transaction that is rolled
// back (docs/recording.md, "What record runs on the server"). Throws RecordError (the server
// refused, the query failed, Cancel); on every path out no tracer stays attached and the server is
// left as it was.
Recording recordQuery(const RecordRequest& request, const RecordCallbacks& callbacks);

// `lookahead record --clean`: removes what a recording killed before it could clean up left behind
// (tracefs instances that go on tracing; pg_buffercache, if it created it, in the database the
// conninfo names). Every recording does this first. Returns what was removed, in words. Throws
// RecordError if the server cannot be reached.
QStringList removeRecordingLeftovers(const QString& conninfo, const QString& password);

} // namespace la

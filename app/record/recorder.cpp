// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/recorder.h"

#include "io/held_directory.h"
#include "record/buffer_cache.h"
#include "record/cache_snapshot.h"
#include "record/query_check.h"
#include "record/query_plan.h"
#include "record/recording_log.h"
#include "record/replay_args.h"
#include "record/scan_visits.h"
#include "record/server_connections.h"
#include "record/server_facts.h"
#include "record/traced_run.h"
#include "record/untraced_run.h"
#include "record/work_file.h"

#include <QJsonArray>

namespace la {

namespace {

QString tracerName(std::optional<TracerKind> tracer) {
    if (!tracer)
        return QStringLiteral("none");
    return *tracer == TracerKind::Kernel ? QStringLiteral("kernel") : QStringLiteral("strace");
}

QJsonObject relationJson(const RecordedScan& scan) {
    return {{QStringLiteral("name"), scan.heap.name},
            {QStringLiteral("file"), scan.heap.filePath},
            {QStringLiteral("blocks"), qint64(scan.heap.blocks)},
            {QStringLiteral("scan"), scan.node.nodeType},
            {QStringLiteral("index"), scan.index ? scan.index->name : QString()}};
}

} // namespace

QStringList removeRecordingLeftovers(const QString& conninfo, const QString& password) {
    PgSession control(conninfo, password, nullptr);
    RecordingLog log(nullptr, nullptr);
    removeLeftovers(control, log);
    return log.notes();
}

Recording recordQuery(const RecordRequest& request, const RecordCallbacks& callbacks) {
    RecordingLog log(callbacks.step, callbacks.note);
    const QString query = withoutTrailingSemicolons(request.query);
    if (query.isEmpty())
        throw RecordError(QStringLiteral("the query is empty: give the SQL to record"));
    // Every work file is written relative to this descriptor, held from here on.
    const HeldDirectory work = asRecordError(
        [&] { return HeldDirectory::open(request.workDirectory.toStdString(), "the work directory"); });

    log.step(QStringLiteral("connecting"));
    ServerConnections connections(request.conninfo, request.password, callbacks.cancel, log);
    log.step(QStringLiteral("reading the server's settings"));
    const ServerFacts facts = readServerFacts(connections.control);
    // Everything the query session runs runs in one read-only transaction, rolled back at the end:
    // whatever the query did (a function that writes) is undone, its settings with it.
    const ReadOnlyTransaction readOnly(connections.session);
    applyQuerySettings(connections.session, request.settings);

    log.step(QStringLiteral("planning the query"));
    const RecordedScan scan = planQuery(connections.session, connections.control, query);
    std::vector<const RecordedRelation*> relations{&scan.heap};
    if (scan.index)
        relations.push_back(&*scan.index);

    BufferCache buffers(connections.control, facts.major());
    if (!buffers.available())
        log.note(buffers.whyUnavailable());
    const QStringList files =
        facts.local ? segmentFilesOf(facts.dataDirectory, relations, log) : QStringList();
    if (request.cold)
        emptyCaches(buffers, relations, files, facts, log);
    const CacheSnapshot snapshot = takeSnapshot(buffers, relations);

    const QString analyze = explainAnalyze(facts.major(), query);
    const TracedRun traced = runTraced(request.tracer, facts, connections, files, work, analyze, log);
    const UntracedRun untraced = runUntraced(connections.session, analyze, traced.tracer.has_value(), buffers,
                                             snapshot, request.cold, files, log);

    Recording recording;
    QStringList& args = recording.replayArgs;
    const QString policy =
        request.comparePolicy.isEmpty() ? defaultPolicy(facts.major()) : request.comparePolicy;
    const QString planFile = writeWorkFile(work, "plan.json", QStringLiteral("the query's plan"),
                                           (untraced.plan.isEmpty() ? traced.plan : untraced.plan).toUtf8());
    const bool observed = traced.tracer && traceReads(traced.tracePath, scan.heap.filePath);
    if (traced.tracer && !observed)
        log.note(
            QStringLiteral("the server read nothing of %1 (every block it visited was in shared buffers): "
                           "there is no observed run, the model runs alone")
                .arg(scan.heap.name));
    args << replayedRunArgs(observed, traced.tracePath, scan.heap, connections.session.backendPid(), planFile,
                            policy);
    const ScanVisits visits =
        scanVisits(request.visitsQuery, connections.control, scan, facts, observed, work, log);
    args << visits.replayArgs;
    if (buffers.available() && visits.modelled())
        args << QStringLiteral("--prewarm") << prewarmSpec(snapshot, work);
    args << serverArgs(facts, policy, scan, log);

    const QJsonObject overhead = tracingOverhead(traced.plan, untraced, log);
    QJsonObject plans{{QStringLiteral("traced"), planJson(traced.plan)}};
    if (!untraced.plan.isEmpty())
        plans[QStringLiteral("untraced")] = planJson(untraced.plan);
    recording.recorded = {
        {QStringLiteral("server_version"), facts.version},
        {QStringLiteral("server"), facts.json()},
        {QStringLiteral("connection"), connections.control.description()},
        {QStringLiteral("query"), query},
        {QStringLiteral("plan"), plans},
        {QStringLiteral("relation"), relationJson(scan)},
        {QStringLiteral("visits"), visits.json},
        {QStringLiteral("cached_at_start"), cachedAtStartJson(snapshot, buffers.available(), observed)},
        {QStringLiteral("tracing_overhead"), overhead},
        {QStringLiteral("cold"), request.cold},
        {QStringLiteral("tracer"), tracerName(traced.tracer)},
    };
    if (const QString error = buffers.restore(); !error.isEmpty())
        log.note(error);
    recording.recorded[QStringLiteral("notes")] = QJsonArray::fromStringList(log.notes());
    return recording;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/recorder.h"

#include "files/held_directory.h"
#include "record/buffer_cache.h"
#include "record/cache_snapshot.h"
#include "record/query_check.h"
#include "record/query_plan.h"
#include "record/recording_log.h"
#include "record/replay_args.h"
#include "record/rescan_visits.h"
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
            {QStringLiteral("index"), scan.index ? scan.index->name : QString()},
            {QStringLiteral("index_file"), scan.index ? scan.index->filePath : QString()}};
}

// What the model of one node leaves out of it, said where it applies: its rescans, and the reads of
// another node of the same table, which the trace cannot tell from its own.
void noteModelledNode(const RecordedPlan& plan, const ExplainOutput& ran, const RecordedPlanNode& modelled,
                      RecordingLog& log) {
    const ExplainNode& node = ran.nodes[std::size_t(modelled.id)];
    if (plan.nodes.size() > 1)
        log.note(
            QStringLiteral("the plan has %1 nodes that read a relation: the model runs node %2 (%3 on %4); "
                           "--node chooses another")
                .arg(plan.nodes.size())
                .arg(modelled.id)
                .arg(node.nodeType, modelled.scan.heap.name));
    if (node.loops.value_or(1) > 1 && !modelled.rescan)
        log.note(QStringLiteral("node %1 ran %2 times (%3 rescans): the model runs its first scan only")
                     .arg(modelled.id)
                     .arg(*node.loops)
                     .arg(*node.loops - 1));
    for (const RecordedPlanNode& other : plan.nodes)
        if (other.id != modelled.id && other.scan.heap.oid == modelled.scan.heap.oid &&
            other.scan.node.nodeType != QLatin1String("Bitmap Index Scan"))
            log.note(QStringLiteral("node %1 (%2) reads %3 too: the trace's reads of it are both nodes'")
                         .arg(other.id)
                         .arg(other.scan.node.nodeType, modelled.scan.heap.name));
}

// The nodes with the modelled node's visits: where they come from and whether they are exact.
QJsonArray withModelledVisits(QJsonArray nodes, const QJsonObject& visits) {
    QJsonObject said;
    for (const char* key : {"source", "exact", "why_not_exact", "why"})
        if (visits.contains(QLatin1String(key)))
            said[QLatin1String(key)] = visits.value(QLatin1String(key));
    for (QJsonValueRef value : nodes) {
        QJsonObject node = value.toObject();
        if (node.value(QStringLiteral("modelled")).toBool()) {
            node[QStringLiteral("visits")] = said;
            value = node;
        }
    }
    return nodes;
}

// The modelled node's visits: a nested loop's inner scan's per outer row, with a reset at each
// rescan, where the server gives them exactly (its query runs in the query's session, with its
// settings); else as any scan's.
ScanVisits modelledVisits(const QString& visitsQuery, ServerConnections& connections,
                          const RecordedPlanNode& modelled, const ExplainNode& ran,
                          const QStringList& settings, const ServerFacts& facts, bool observed,
                          const HeldDirectory& work, RecordingLog& log) {
    if (visitsQuery.isEmpty() && modelled.rescan && !modelled.rescan->sql.isEmpty()) {
        log.step(QStringLiteral("reading the inner scan's visits per outer row"));
        QString why;
        if (std::optional<ScanVisits> visits =
                rescanVisits(*modelled.rescan, connections.session, modelled.scan.heap, ran.loops.value_or(1),
                             facts.local, work, why))
            return *visits;
        log.note(QStringLiteral("node %1's visits per outer row cannot be had from the server (%2)")
                     .arg(modelled.id)
                     .arg(why));
    }
    // The visits' query (the server's, or --visits-query) may take as long as the query itself.
    const CancelScope cancellable(connections.control, connections.recordingCancel);
    return scanVisits(visitsQuery, connections.control, modelled.scan, ran, settings, facts, observed, work,
                      log);
}

// Where the visits hold the plan's (docs/plan-runs.md), the cache state at the start in its block space
// and the command that runs every stream of it: "visits"'s "plan" gains "prewarm" and "command".
// Without a snapshot (no pg_buffercache) the cache is taken to be cold, as the node's own model does.
void addPlanRun(ScanVisits& visits, const std::vector<const RecordedRelation*>& relations,
                const CacheSnapshot* snapshot, const QString& policy, const HeldDirectory& work) {
    QJsonObject plan = visits.json.value(QStringLiteral("plan")).toObject();
    if (!plan.contains(QStringLiteral("file")))
        return;
    std::vector<std::pair<const RecordedRelation*, std::uint64_t>> placed;
    for (const QJsonValue& value : plan.value(QStringLiteral("streams")).toArray()) {
        const QJsonObject stream = value.toObject();
        for (const RecordedRelation* relation : relations)
            if (relation->name == stream.value(QStringLiteral("relation")).toString())
                placed.emplace_back(relation,
                                    std::uint64_t(stream.value(QStringLiteral("first_block")).toInteger()));
    }
    const QString prewarm = snapshot ? planPrewarmSpec(*snapshot, placed, work) : QStringLiteral("none");
    plan[QStringLiteral("prewarm")] = prewarm;
    plan[QStringLiteral("command")] = QJsonArray::fromStringList(
        {QStringLiteral("lookahead"), QStringLiteral("--headless"), QStringLiteral("--blocks"),
         plan.value(QStringLiteral("file")).toString(), QStringLiteral("--relation-blocks"),
         QString::number(plan.value(QStringLiteral("relation_blocks")).toInteger()),
         QStringLiteral("--prewarm"), prewarm, QStringLiteral("--policy"), policy,
         QStringLiteral("--shown-stream"), QStringLiteral("1")});
    visits.json[QStringLiteral("plan")] = plan;
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
    const RecordedPlan plan = planQuery(connections.session, connections.control, query);
    // Every relation the plan reads is snapshotted, emptied for --cold and traced.
    const std::vector<const RecordedRelation*> relations = plan.relationsRead();

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

    // The plan as it ran, with EXPLAIN's figures: the untraced run's where there is one.
    const QString ranText = untraced.plan.isEmpty() ? traced.plan : untraced.plan;
    const ExplainOutput ran = asRecordError(
        [&] { return parseExplainOutput(ranText.toUtf8(), QStringLiteral("the query's plan")); });
    const bool visitsGiven = !request.visitsQuery.isEmpty();
    const RecordedPlanNode& modelled = modelledNode(plan, ran, request.node, visitsGiven);
    const RecordedScan& scan = modelled.scan;
    noteModelledNode(plan, ran, modelled, log);

    Recording recording;
    QStringList& args = recording.replayArgs;
    const QString policy =
        request.comparePolicy.isEmpty() ? defaultPolicy(facts.major()) : request.comparePolicy;
    writeWorkFile(work, "plan.json", QStringLiteral("the query's plan"), ranText.toUtf8());
    const QByteArray nodePlan = nodePlanJson(ranText, ran, modelled.id);
    const QString planFile =
        writeWorkFile(work, "node.json", QStringLiteral("the modelled node's plan"), nodePlan);
    const bool observed = traced.tracer && traceReads(traced.tracePath, scan.heap.filePath);
    if (traced.tracer && !observed)
        log.note(
            QStringLiteral("the trace shows no read of %1 (every block it visited was in shared buffers, "
                           "or its reads went through io_uring while another file's were read calls): there "
                           "is no observed run, the model runs alone")
                .arg(scan.heap.name));
    args << replayedRunArgs(observed, traced.tracePath, scan.heap, connections.session.backendPid(), planFile,
                            policy);
    ScanVisits visits =
        modelledVisits(request.visitsQuery, connections, modelled, ran.nodes[std::size_t(modelled.id)],
                       request.settings, facts, observed, work, log);
    addPlanRun(visits, relations, buffers.available() ? &snapshot : nullptr, policy, work);
    args << visits.replayArgs;
    if (buffers.available() && visits.modelled())
        args << QStringLiteral("--prewarm") << prewarmSpec(snapshot, scan.heap, work);
    args << serverArgs(facts, policy, scan, log);

    const QJsonObject overhead = tracingOverhead(traced.plan, untraced, log);
    QJsonObject plans{{QStringLiteral("traced"), planJson(traced.plan)}};
    if (!untraced.plan.isEmpty())
        plans[QStringLiteral("untraced")] = planJson(untraced.plan);
    plans[QStringLiteral("node")] = planJson(QString::fromUtf8(nodePlan));
    recording.recorded = {
        {QStringLiteral("server_version"), facts.version},
        {QStringLiteral("server"), facts.json()},
        {QStringLiteral("connection"), connections.control.description()},
        {QStringLiteral("query"), query},
        {QStringLiteral("plan"), plans},
        {QStringLiteral("relation"), relationJson(scan)},
        {QStringLiteral("nodes"),
         withModelledVisits(recordedNodesJson(plan, ran, facts.major(), modelled, visitsGiven), visits.json)},
        {QStringLiteral("modelled_node"), modelled.id},
        {QStringLiteral("visits"), visits.json},
        {QStringLiteral("cached_at_start"),
         cachedAtStartJson(snapshot, scan.heap, buffers.available(), observed)},
        {QStringLiteral("tracing_overhead"), overhead},
        {QStringLiteral("cold"), request.cold},
        {QStringLiteral("tracer"), tracerName(traced.tracer)},
    };
    recording.recorded[QStringLiteral("notes")] = QJsonArray::fromStringList(log.notes());
    return recording;
}

} // namespace la

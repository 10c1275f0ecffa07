// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/recorder.h"

#include "buffer_strategy.h"
#include "capture/make_tracer.h"
#include "capture/tracefs.h"
#include "experiment/explain_output.h"
#include "input_error.h"
#include "io/held_directory.h"
#include "io/os_cache.h"
#include "io/output_file.h"
#include "io_backend.h"
#include "pg/relation_files.h"
#include "record/buffer_cache.h"
#include "record/query_check.h"
#include "record/recorded_scan.h"
#include "record/server_facts.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <memory>
#include <optional>

namespace la {

namespace {

// At most this many visits from --visits-query: 2^32 blocks is PostgreSQL's own limit per relation,
// but a list of visits is held in memory.
constexpr std::size_t kMaxVisits = 200'000'000;

QString withoutTrailingSemicolons(QString query) {
    query = query.trimmed();
    while (query.endsWith(QLatin1Char(';')))
        query = query.chopped(1).trimmed();
    return query;
}

// The model's policy by default: the server's own read stream, or PostgreSQL 19's before 17 had one.
QString defaultPolicy(int major) {
    if (major == 17 || major == 18)
        return QStringLiteral("pg%1").arg(major);
    return QStringLiteral("pg19");
}

// Writes `bytes` as `name` in the work directory, relative to its held descriptor; its path.
QString writeFile(const HeldDirectory& work, const char* name, const QString& what, const QByteArray& bytes) {
    try {
        OutputFile file(work, name, what.toStdString());
        file.write(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        file.commit();
    } catch (const InputError& error) {
        throw RecordError(QString::fromStdString(error.what()));
    } catch (const IoError& error) {
        throw RecordError(QString::fromStdString(error.what()));
    }
    return QString::fromStdString(work.filePath(name));
}

// At most this much of a snapshot's ranges in "recorded": a session's meta entry holds 64 KiB.
constexpr qsizetype kMaxRangesChars = 16 * 1024;

// "0-299,512,600-700": ascending blocks as ranges.
QString blockRanges(const std::vector<std::uint32_t>& blocks) {
    QString text;
    for (std::size_t i = 0; i < blocks.size();) {
        std::size_t end = i;
        while (end + 1 < blocks.size() && blocks[end + 1] == blocks[end] + 1)
            ++end;
        if (!text.isEmpty())
            text += QLatin1Char(',');
        text +=
            end == i ? QString::number(blocks[i]) : QStringLiteral("%1-%2").arg(blocks[i]).arg(blocks[end]);
        if (text.size() > kMaxRangesChars)
            break;
        i = end + 1;
    }
    return text;
}

QByteArray blockLines(const std::vector<std::uint32_t>& blocks) {
    QByteArray text;
    for (const std::uint32_t block : blocks)
        text += QByteArray::number(block) + '\n';
    return text;
}

// Every segment of a relation that exists here: "base/5/16390", ".1", ".2", …
// A relation's segment files, as the relation readers find them; none, with a note, if they cannot
// be read here (the trace names them all the same).
QStringList segmentFiles(const QString& dataDirectory, const RecordedRelation& relation,
                         const std::function<void(const QString&)>& note) {
    QStringList files;
    try {
        const pg::SegmentedRelation segments(QDir(dataDirectory).filePath(relation.filePath).toStdString(),
                                             relation.name.toStdString());
        for (const pg::Segment& segment : segments.segments())
            files << QString::fromStdString(segment.path);
    } catch (const InputError& error) {
        note(QString::fromStdString(error.what()));
    }
    return files;
}

// How many rows of --visits-query are fetched at a time: what is held in memory of its answer.
constexpr int kVisitsBatch = 100'000;

// The visits --visits-query gives, in its row order (a ctid "(12,3)" or a block number per row),
// fetched in batches through a cursor and written to `out` as they come, at most kMaxVisits of
// them. It runs in a read-only transaction of the control session, rolled back. Returns the count.
// `relation` of `relationBlocks` blocks is the scan's: a visit past its end is no visit of it.
std::uint64_t streamVisits(PgSession& control, const QString& sql, const QString& relation,
                           std::uint64_t relationBlocks, OutputFile& out) {
    static const QRegularExpression ctid(QStringLiteral(R"(^\((\d+),\d+\)$)"));
    const ReadOnlyTransaction transaction(control);
    requireReadOnlyQuery(control, sql, QStringLiteral("--visits-query"));
    control.query(QStringLiteral("DECLARE lookahead_visits NO SCROLL CURSOR FOR ") + sql, {},
                  QStringLiteral("--visits-query"));
    const QString fetch = QStringLiteral("FETCH FORWARD %1 FROM lookahead_visits").arg(kVisitsBatch);
    std::uint64_t count = 0;
    for (;;) {
        const PgSession::Rows rows = control.query(fetch, {}, QStringLiteral("--visits-query"));
        if (rows.empty())
            return count;
        if (count + rows.size() > kMaxVisits)
            throw RecordError(
                QStringLiteral("--visits-query returned more than the %1 visits a recording holds")
                    .arg(kMaxVisits));
        std::string lines;
        for (const QStringList& row : rows) {
            const QString cell = row.value(0).trimmed();
            const QRegularExpressionMatch match = ctid.match(cell);
            bool ok = false;
            const qulonglong block = (match.hasMatch() ? match.captured(1) : cell).toULongLong(&ok);
            if (!ok || block > 0xFFFFFFFEULL)
                throw RecordError(
                    QStringLiteral("--visits-query returned \"%1\" in row %2: give a ctid or a block "
                                   "number per row, in the scan's visit order")
                        .arg(cell.left(40))
                        .arg(count + 1));
            if (block >= relationBlocks)
                throw RecordError(
                    QStringLiteral("--visits-query returned block %1 in row %2, past the end of %3 "
                                   "(%4 blocks): give the visits of the scan's own relation")
                        .arg(block)
                        .arg(count + 1)
                        .arg(relation)
                        .arg(relationBlocks));
            lines += std::to_string(block);
            lines += '\n';
            ++count;
        }
        try {
            out.write(lines);
        } catch (const IoError& error) {
            throw RecordError(QString::fromStdString(error.what()));
        }
    }
}

// Whether the trace shows any read of `file` (a path's last components): a query whose blocks were all
// in shared buffers reads nothing, and has no observed run to show.
bool traceReads(const QString& tracePath, const QString& file) {
    QFile trace(tracePath);
    if (!trace.open(QIODevice::ReadOnly))
        return false;
    // strace writes "fd</path>", a kernel capture "read … /path" for a device read and "call … /path"
    // for a read call, which the page cache may have served (docs/trace-import.md §2).
    const QByteArray path = '/' + file.toUtf8();
    while (!trace.atEnd()) {
        const QByteArray line = trace.readLine(1 << 16).trimmed();
        if (line.contains(QByteArray(path + '>')) ||
            ((line.startsWith("read ") || line.startsWith("call ")) && line.endsWith(path)))
            return true;
    }
    return false;
}

QJsonValue planJson(const QString& text) {
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(text);
}

std::optional<double> executionMs(const QString& planText) {
    try {
        return parseExplainOutput(planText.toUtf8(), QStringLiteral("the query's plan")).executionMs;
    } catch (const InputError&) {
        return std::nullopt;
    }
}

// Drops the relation's files from the OS page cache (flushed first, core/io/os_cache.h). Failures
// are said, not fatal: the recording shows what was cached.
void emptyOsCache(const QStringList& files, const std::function<void(const QString&)>& note) {
    for (const QString& file : files) {
        try {
            evictFromOsCache(QFile::encodeName(file).toStdString());
        } catch (const IoError& error) {
            note(QStringLiteral("--cold: ") + QString::fromLocal8Bit(error.what()));
        }
    }
}

// The tracer the request names, or the kernel's tracepoints where this process may use them: they see
// every read, io_uring's too, at a cost the query hardly feels (docs/trace-import.md §2.4). Else
// strace, which sees the read calls only, and stops the server at each.
std::unique_ptr<Tracer> chooseTracer(std::optional<TracerKind> asked, const ServerFacts& facts,
                                     const CaptureTargets& targets,
                                     const std::function<void(const QString&)>& note) {
    const bool uring = facts.ioMethod == QLatin1String("io_uring");
    std::unique_ptr<Tracer> tracer = makeTracer(asked.value_or(TracerKind::Kernel));
    QString why = tracer->unavailable(targets);
    if (why.isEmpty()) {
        if (uring && tracer->kind() == TracerKind::Strace)
            note(QStringLiteral("io_method = io_uring: the server's reads go through io_uring, which syscall "
                                "tracing cannot see (use --tracer kernel); everything else is recorded"));
        return tracer;
    }
    if (asked)
        throw RecordError(QStringLiteral("cannot trace the server's processes: ") + why);
    note(QStringLiteral(
             "the kernel tracer cannot be used (%1): tracing with strace, which cannot see io_uring's "
             "reads")
             .arg(why));
    tracer = makeTracer(TracerKind::Strace);
    if (const QString straceWhy = tracer->unavailable(targets); !straceWhy.isEmpty())
        throw RecordError(QStringLiteral("cannot trace the server's processes: ") + straceWhy);
    return tracer;
}

// The tracer, attached for the life of this object: it is detached on every path out, and its file
// published only by detach().
class AttachedTracer {
public:
    AttachedTracer(Tracer* tracer, const CaptureTargets& targets, std::unique_ptr<OutputFile> output)
        : m_tracer(tracer) {
        if (!m_tracer)
            return;
        if (const QString error = m_tracer->start(targets, std::move(output)); !error.isEmpty())
            throw RecordError(QStringLiteral("cannot trace the server's processes: ") + error);
    }
    ~AttachedTracer() {
        if (m_tracer)
            m_tracer->abandon();
    }
    AttachedTracer(const AttachedTracer&) = delete;
    AttachedTracer& operator=(const AttachedTracer&) = delete;
    void detach() {
        if (!m_tracer)
            return;
        const QString error = m_tracer->stop();
        m_tracer = nullptr;
        if (!error.isEmpty())
            throw RecordError(error);
    }

private:
    Tracer* m_tracer;
};

// Before 17 a large sequential scan's ring is 256 kB, as 17's; the model, a newer read stream,
// sizes its own by its version's rule (docs/read-stream-model.md §14): said where they differ.
void noteOlderRing(const ServerFacts& facts, std::uint64_t relationBlocks,
                   const std::function<void(const QString&)>& note) {
    StreamConfig server;
    server.sharedBuffers = facts.sharedBufferBlocks;
    server.effectiveIoConcurrency = facts.effectiveIoConcurrency;
    server.maxConnections = facts.maxConnections;
    server.sequentialFlag = true;
    const BufferStrategy own =
        chooseStrategy(StrategyChoice::Auto, RingRule::Fixed256kB, server, relationBlocks);
    const BufferStrategy model =
        chooseStrategy(StrategyChoice::Auto, RingRule::PlusIoConcurrency, server, relationBlocks);
    if (own.ringBuffers != model.ringBuffers)
        note(
            QStringLiteral("PostgreSQL %1 reads the table through a BULKREAD ring of %2 buffers, the model "
                           "through one of %3, as a read stream sizes it: the model leaves %4 %5 of the "
                           "table's blocks in shared buffers after the scan")
                .arg(facts.major())
                .arg(own.ringBuffers)
                .arg(model.ringBuffers)
                .arg(std::abs(own.ringBuffers - model.ringBuffers))
                .arg(model.ringBuffers > own.ringBuffers ? QStringLiteral("more") : QStringLiteral("fewer")));
}

// What a recording killed before it could clean up left behind (a tracefs instance that goes on
// tracing, the extension it created), removed, each said as a note.
void removeLeftovers(PgSession& control, const std::function<void(const QString&)>& note) {
    for (const QString& instance : tracefs::removeStaleInstances())
        note(QStringLiteral("removed the tracefs instance %1, left behind by a capture or recording that was "
                            "killed: it went on tracing until now")
                 .arg(instance));
    if (const QString dropped = BufferCache::removeLeftover(control); !dropped.isEmpty())
        note(dropped);
}

} // namespace

QStringList removeRecordingLeftovers(const QString& conninfo, const QString& password) {
    PgSession control(conninfo, password, nullptr);
    QStringList removed;
    removeLeftovers(control, [&](const QString& done) { removed << done; });
    return removed;
}

Recording recordQuery(const RecordRequest& request, const RecordCallbacks& callbacks) {
    const auto step = [&](const QString& text) {
        if (callbacks.step)
            callbacks.step(text);
    };
    // Every note is also kept in "recorded", so that the window and a session show them too.
    QStringList notes;
    const auto note = [&](const QString& text) {
        notes << text;
        if (callbacks.note)
            callbacks.note(text);
    };
    const QString query = withoutTrailingSemicolons(request.query);
    if (query.isEmpty())
        throw RecordError(QStringLiteral("the query is empty: give the SQL to record"));
    // Every work file is written relative to this descriptor, held from here on.
    std::optional<HeldDirectory> held;
    try {
        held.emplace(HeldDirectory::open(request.workDirectory.toStdString(), "the work directory"));
    } catch (const InputError& error) {
        throw RecordError(QString::fromStdString(error.what()));
    }
    const HeldDirectory& work = *held;

    step(QStringLiteral("connecting"));
    // Two connections: the query's, whose backend is traced, and one for everything else, whose
    // catalog reads and snapshots stay out of the trace.
    PgSession control(request.conninfo, request.password, callbacks.cancel);
    PgSession session(request.conninfo, request.password, callbacks.cancel);
    // A server's notices (a function's RAISE NOTICE) are the recording's notes.
    for (PgSession* connection : {&control, &session})
        connection->setNoticeHandler(
            [&](const QString& notice) { note(QStringLiteral("the server said: ") + notice); });
    // The control connection's statements are short, and its clean-up must run after a Cancel too.
    control.setCancel(nullptr);
    removeLeftovers(control, note);
    step(QStringLiteral("reading the server's settings"));
    const ServerFacts facts = readServerFacts(control);
    // Everything the query session runs runs in one read-only transaction, rolled back at the end:
    // whatever the query did (a function that writes) is undone, its settings with it.
    const ReadOnlyTransaction readOnly(session);
    // One process reads the relation, in block order: no parallel workers, no synchronized start.
    session.query(QStringLiteral("SET max_parallel_workers_per_gather = 0"));
    session.query(QStringLiteral("SET synchronize_seqscans = off"));
    for (const QString& setting : request.settings) {
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

    step(QStringLiteral("planning the query"));
    // The server decides what the query does: only a query that reads is recorded. Planning also
    // reads what planning needs (catalogs, the index's metapage), so that the traced run's reads are
    // its execution's.
    const QString planned = requireReadOnlyQuery(session, query, QStringLiteral("the query"));
    ExplainOutput plan;
    try {
        plan = parseExplainOutput(planned.toUtf8(), QStringLiteral("the query's plan"));
    } catch (const InputError& error) {
        throw RecordError(QString::fromStdString(error.what()));
    }
    const RecordedScan scan = recordedScanOf(plan, control);
    std::vector<const RecordedRelation*> relations{&scan.heap};
    if (scan.index)
        relations.push_back(&*scan.index);

    BufferCache buffers(control, facts.major());
    if (!buffers.available())
        note(buffers.whyUnavailable());
    QStringList files;
    if (facts.local)
        for (const RecordedRelation* relation : relations)
            files += segmentFiles(facts.dataDirectory, *relation, note);
    if (request.cold) {
        step(QStringLiteral("emptying the relation's caches"));
        for (const RecordedRelation* relation : relations) {
            QString why;
            if (!buffers.available() || buffers.evict(relation->oid, {}, why))
                continue;
            if (const std::size_t stay = buffers.residentBlocks(relation->oid).size(); stay > 0)
                note(QStringLiteral("--cold: %1; %2 of %3's blocks stay in shared buffers")
                         .arg(why)
                         .arg(stay)
                         .arg(relation->name));
        }
        emptyOsCache(files, note);
        if (!facts.local)
            note(QStringLiteral(
                "--cold: the OS cache of a server on another machine cannot be emptied from here"));
    }

    std::vector<std::vector<std::uint32_t>> snapshot(relations.size());
    if (buffers.available())
        for (std::size_t i = 0; i < relations.size(); ++i)
            snapshot[i] = buffers.residentBlocks(relations[i]->oid);

    CaptureTargets targets;
    std::unique_ptr<Tracer> tracer;
    if (facts.local) {
        targets.pids = {session.backendPid()};
        if (facts.major() >= 18 && facts.ioMethod == QLatin1String("worker")) {
            for (const qint64 pid : ioWorkerPids(control))
                targets.pids.push_back(pid);
            // The pool grows during a query: the postmaster starts the new workers.
            targets.pids.push_back(facts.postmasterPid);
            targets.followChildren = {facts.postmasterPid};
        }
        targets.files = files;
        tracer = chooseTracer(request.tracer, facts, targets, note);
    } else {
        note(QStringLiteral("the server's processes cannot be traced from here (%1): everything is recorded "
                            "but the trace of its reads")
                 .arg(facts.whyNotLocal));
    }

    const QString analyze = QStringLiteral("EXPLAIN (ANALYZE, BUFFERS%1, FORMAT JSON) ")
                                .arg(facts.major() >= 19 ? QStringLiteral(", IO") : QString()) +
                            query;
    const QString tracePath = QString::fromStdString(work.filePath("query.trace"));
    QString tracedPlan;
    {
        std::unique_ptr<OutputFile> traceFile;
        try {
            if (tracer)
                traceFile = std::make_unique<OutputFile>(work, "query.trace", "the trace");
        } catch (const InputError& error) {
            throw RecordError(QString::fromStdString(error.what()));
        }
        AttachedTracer attached(tracer.get(), targets, std::move(traceFile));
        // Said once the tracer is attached: from here a Cancel has a tracer to detach.
        step(tracer ? QStringLiteral("running the query, traced") : QStringLiteral("running the query"));
        tracedPlan = session.value(analyze, {}, QStringLiteral("the query"));
        attached.detach();
    }

    // Tracing slows the server down and changes its waits: the figures come from a run untraced,
    // from the same cache state, where the server can be brought back to it.
    QString untracedPlan;
    QString overheadWhy;
    if (!tracer) {
        overheadWhy = QStringLiteral("nothing was traced");
    } else if (!buffers.available()) {
        overheadWhy = QStringLiteral("without pg_buffercache the cache state of the start cannot be checked");
    } else {
        step(QStringLiteral("restoring the cache state of the start"));
        bool same = true;
        for (std::size_t i = 0; i < relations.size() && same; ++i) {
            QString why;
            if (buffers.residentBlocks(relations[i]->oid) != snapshot[i] &&
                !buffers.evict(relations[i]->oid, snapshot[i], why))
                overheadWhy = why;
            same = buffers.residentBlocks(relations[i]->oid) == snapshot[i];
        }
        if (same) {
            if (request.cold)
                emptyOsCache(files, note);
            step(QStringLiteral("running the query, untraced"));
            untracedPlan = session.value(analyze, {}, QStringLiteral("the query"));
        } else if (overheadWhy.isEmpty()) {
            overheadWhy = QStringLiteral("the relation's buffers could not be brought back to the start's");
        }
    }
    if (!overheadWhy.isEmpty())
        note(QStringLiteral("the query ran once, traced, and PostgreSQL's figures are the traced run's: %1")
                 .arg(overheadWhy));

    Recording recording;
    QStringList& args = recording.replayArgs;
    const QString policy =
        request.comparePolicy.isEmpty() ? defaultPolicy(facts.major()) : request.comparePolicy;
    const QString planFile = writeFile(work, "plan.json", QStringLiteral("the query's plan"),
                                       (untracedPlan.isEmpty() ? tracedPlan : untracedPlan).toUtf8());
    const bool observed = tracer && traceReads(tracePath, scan.heap.filePath);
    if (tracer && !observed)
        note(QStringLiteral("the server read nothing of %1 (every block it visited was in shared buffers): "
                            "there is no observed run, the model runs alone")
                 .arg(scan.heap.name));
    if (observed)
        args << QStringLiteral("--import-trace") << tracePath << QStringLiteral("--trace-relation")
             << scan.heap.filePath << QStringLiteral("--trace-backend")
             << QString::number(session.backendPid()) << QStringLiteral("--explain") << planFile
             << QStringLiteral("--compare-policy") << policy;
    else
        args << QStringLiteral("--policy") << policy;

    QJsonObject visits;
    if (!request.visitsQuery.isEmpty()) {
        step(QStringLiteral("reading the visits"));
        std::uint64_t count = 0;
        try {
            OutputFile visitsFile(work, "visits.txt", "the visits");
            count = streamVisits(control, withoutTrailingSemicolons(request.visitsQuery), scan.heap.name,
                                 scan.heap.blocks, visitsFile);
            visitsFile.commit();
        } catch (const InputError& error) {
            throw RecordError(QString::fromStdString(error.what()));
        } catch (const IoError& error) {
            throw RecordError(QString::fromStdString(error.what()));
        }
        args << QStringLiteral("--blocks") << QString::fromStdString(work.filePath("visits.txt"));
        args << QStringLiteral("--relation-blocks")
             << QString::number(std::max<qint64>(1, qint64(scan.heap.blocks)));
        visits = {{QStringLiteral("source"), QStringLiteral("visits-query")},
                  {QStringLiteral("query"), request.visitsQuery},
                  {QStringLiteral("count"), qint64(count)}};
    } else if (scan.sequential()) {
        // A sequential scan's stream is READ_STREAM_SEQUENTIAL: with the relation's size and the
        // server's figures below, the model picks the server's strategy (BULKREAD above a quarter
        // of shared_buffers).
        args << QStringLiteral("--dataset") << QStringLiteral("seq") << QStringLiteral("--pattern-blocks")
             << QString::number(scan.heap.blocks) << QStringLiteral("--stream-flags")
             << QStringLiteral("sequential");
        visits = {{QStringLiteral("source"), QStringLiteral("sequential")},
                  {QStringLiteral("count"), qint64(scan.heap.blocks)}};
    } else if (scan.keyRange && scan.index && facts.local) {
        args << QStringLiteral("--pg-datadir") << facts.dataDirectory << QStringLiteral("--pg-index")
             << scan.index->filePath << QStringLiteral("--pg-heap") << scan.heap.filePath
             << QStringLiteral("--pg-key") << scan.keyRange->keyType << QStringLiteral("--pg-key-range")
             << QStringLiteral("%1:%2").arg(scan.keyRange->lo).arg(scan.keyRange->hi)
             << QStringLiteral("--direction")
             << (scan.node.backward ? QStringLiteral("backward") : QStringLiteral("forward"));
        visits = {{QStringLiteral("source"), QStringLiteral("btree")},
                  {QStringLiteral("index"), scan.index->name},
                  {QStringLiteral("key_range"),
                   QStringLiteral("%1:%2").arg(scan.keyRange->lo).arg(scan.keyRange->hi)},
                  {QStringLiteral("direction"),
                   scan.node.backward ? QStringLiteral("backward") : QStringLiteral("forward")}};
    } else {
        const QString why = !scan.whyNoKeyRange.isEmpty() ? scan.whyNoKeyRange
                            : !facts.local ? QStringLiteral("the index files are on another machine")
                                           : QStringLiteral("it is a %1").arg(scan.node.nodeType);
        if (!observed)
            throw RecordError(
                QStringLiteral("the scan's visits cannot be worked out (%1) and nothing was traced: "
                               "give --visits-query SQL returning its ctids in visit order")
                    .arg(why));
        note(QStringLiteral(
                 "the scan's visits cannot be worked out (%1): the model replays the observed reads, "
                 "so its hits are missing; give --visits-query SQL returning ctids in visit order")
                 .arg(why));
        visits = {{QStringLiteral("source"), QStringLiteral("trace")}, {QStringLiteral("why"), why}};
    }
    const bool modelVisits = visits.value(QStringLiteral("source")) != QLatin1String("trace");

    QJsonObject cached;
    if (buffers.available()) {
        cached = {{QStringLiteral("source"), QStringLiteral("pg_buffercache")},
                  {QStringLiteral("blocks"), qint64(snapshot[0].size())}};
        // The snapshot itself, so that a session holds it after the work files are gone.
        if (const QString ranges = blockRanges(snapshot[0]); ranges.size() <= kMaxRangesChars)
            cached[QStringLiteral("ranges")] = ranges;
        else
            cached[QStringLiteral("ranges_left_out")] = true;
        if (modelVisits) {
            QString spec = QStringLiteral("none");
            if (!snapshot[0].empty()) {
                spec = QStringLiteral("list:") + writeFile(work, "cached-at-start.txt",
                                                           QStringLiteral("the cache snapshot"),
                                                           blockLines(snapshot[0]));
            }
            args << QStringLiteral("--prewarm") << spec;
        }
    } else {
        cached = {{QStringLiteral("source"), observed ? QStringLiteral("trace") : QStringLiteral("unknown")}};
    }
    args << QStringLiteral("--shared-buffers") << QString::number(facts.sharedBufferBlocks)
         << QStringLiteral("--eic") << QString::number(facts.effectiveIoConcurrency);
    if (facts.maxConnections > 0)
        args << QStringLiteral("--max-connections") << QString::number(facts.maxConnections);
    if (facts.ioCombineLimit > 0)
        args << QStringLiteral("--io-combine-limit") << QString::number(facts.ioCombineLimit);
    if (facts.major() < 17)
        note(
            QStringLiteral("PostgreSQL %1 has no read stream: the model shows what %2's would do on the same "
                           "visits")
                .arg(facts.major())
                .arg(policy));
    if (facts.major() < 17 && scan.sequential())
        noteOlderRing(facts, scan.heap.blocks, note);

    QJsonObject overhead;
    const std::optional<double> tracedMs = executionMs(tracedPlan);
    const std::optional<double> untracedMs =
        untracedPlan.isEmpty() ? std::nullopt : executionMs(untracedPlan);
    if (tracedMs && untracedMs && *untracedMs > 0) {
        overhead = {{QStringLiteral("traced_ms"), *tracedMs},
                    {QStringLiteral("untraced_ms"), *untracedMs},
                    {QStringLiteral("ratio"), *tracedMs / *untracedMs}};
        note(QStringLiteral("tracing cost: the query ran %1 ms traced, %2 ms untraced (%3×)")
                 .arg(*tracedMs, 0, 'f', 1)
                 .arg(*untracedMs, 0, 'f', 1)
                 .arg(*tracedMs / *untracedMs, 0, 'f', 2));
    } else {
        overhead = {{QStringLiteral("measured"), false}, {QStringLiteral("why"), overheadWhy}};
    }
    QJsonObject plans{{QStringLiteral("traced"), planJson(tracedPlan)}};
    if (!untracedPlan.isEmpty())
        plans[QStringLiteral("untraced")] = planJson(untracedPlan);
    recording.recorded = {
        {QStringLiteral("server_version"), facts.version},
        {QStringLiteral("server"), facts.json()},
        {QStringLiteral("connection"), control.description()},
        {QStringLiteral("query"), query},
        {QStringLiteral("plan"), plans},
        {QStringLiteral("relation"),
         QJsonObject{{QStringLiteral("name"), scan.heap.name},
                     {QStringLiteral("file"), scan.heap.filePath},
                     {QStringLiteral("blocks"), qint64(scan.heap.blocks)},
                     {QStringLiteral("scan"), scan.node.nodeType},
                     {QStringLiteral("index"), scan.index ? scan.index->name : QString()}}},
        {QStringLiteral("visits"), visits},
        {QStringLiteral("cached_at_start"), cached},
        {QStringLiteral("tracing_overhead"), overhead},
        {QStringLiteral("cold"), request.cold},
        {QStringLiteral("tracer"), !tracer                                ? QStringLiteral("none")
                                   : tracer->kind() == TracerKind::Kernel ? QStringLiteral("kernel")
                                                                          : QStringLiteral("strace")},
    };
    if (const QString error = buffers.restore(); !error.isEmpty())
        note(error);
    recording.recorded[QStringLiteral("notes")] = QJsonArray::fromStringList(notes);
    return recording;
}

} // namespace la

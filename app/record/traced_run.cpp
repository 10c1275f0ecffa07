// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/traced_run.h"

#include "capture/make_tracer.h"
#include "files/held_directory.h"
#include "record/recording_log.h"
#include "record/server_connections.h"
#include "record/server_facts.h"
#include "record/work_file.h"

#include <QFile>

#include <memory>

namespace la {

namespace {

// The tracer the request names, or the kernel's tracepoints where this process may use them: they see
// every read, io_uring's too, at a cost the query hardly feels (docs/trace-import.md §2.4). Else
// strace, which sees the read calls only, and stops the server at each.
std::unique_ptr<Tracer> chooseTracer(std::optional<TracerKind> asked, const ServerFacts& facts,
                                     const CaptureTargets& targets, RecordingLog& log) {
    const bool uring = facts.ioMethod == QLatin1String("io_uring");
    std::unique_ptr<Tracer> tracer = makeTracer(asked.value_or(TracerKind::Kernel));
    QString why = tracer->unavailable(targets);
    if (why.isEmpty()) {
        if (uring && tracer->kind() == TracerKind::Strace)
            log.note(
                QStringLiteral("io_method = io_uring: the server's reads go through io_uring, which syscall "
                               "tracing cannot see (use --tracer kernel); everything else is recorded"));
        return tracer;
    }
    if (asked)
        throw RecordError(QStringLiteral("cannot trace the server's processes: ") + why);
    log.note(QStringLiteral("the kernel tracer cannot be used (%1): tracing with strace, which cannot see "
                            "io_uring's reads")
                 .arg(why));
    tracer = makeTracer(TracerKind::Strace);
    if (const QString straceWhy = tracer->unavailable(targets); !straceWhy.isEmpty())
        throw RecordError(QStringLiteral("cannot trace the server's processes: ") + straceWhy);
    return tracer;
}

// The server's processes that read for the query's backend, and the relation's files.
CaptureTargets captureTargets(const ServerFacts& facts, ServerConnections& connections,
                              const QStringList& files) {
    CaptureTargets targets;
    targets.pids = {connections.session.backendPid()};
    if (facts.major() >= 18 && facts.ioMethod == QLatin1String("worker")) {
        for (const qint64 pid : ioWorkerPids(connections.control))
            targets.pids.push_back(pid);
        // The pool grows during a query: the postmaster starts the new workers.
        targets.pids.push_back(facts.postmasterPid);
        targets.followChildren = {facts.postmasterPid};
    }
    targets.files = files;
    return targets;
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

} // namespace

TracedRun runTraced(std::optional<TracerKind> asked, const ServerFacts& facts, ServerConnections& connections,
                    const QStringList& files, const HeldDirectory& work, const QString& analyze,
                    RecordingLog& log) {
    CaptureTargets targets;
    std::unique_ptr<Tracer> tracer;
    if (facts.local) {
        targets = captureTargets(facts, connections, files);
        tracer = chooseTracer(asked, facts, targets, log);
    } else {
        log.note(
            QStringLiteral("the server's processes cannot be traced from here (%1): everything is recorded "
                           "but the trace of its reads")
                .arg(facts.whyNotLocal));
    }
    TracedRun run;
    run.tracePath = QString::fromStdString(work.filePath("query.trace"));
    std::unique_ptr<OutputFile> traceFile;
    if (tracer) {
        run.tracer = tracer->kind();
        traceFile =
            asRecordError([&] { return std::make_unique<OutputFile>(work, "query.trace", "the trace"); });
    }
    AttachedTracer attached(tracer.get(), targets, std::move(traceFile));
    // Said once the tracer is attached: from here a Cancel has a tracer to detach.
    log.step(tracer ? QStringLiteral("running the query, traced") : QStringLiteral("running the query"));
    run.plan = connections.session.value(analyze, {}, QStringLiteral("the query"));
    attached.detach();
    return run;
}

bool traceReads(const QString& tracePath, const QString& file) {
    QFile trace(tracePath);
    if (!trace.open(QIODevice::ReadOnly))
        return false;
    // strace writes "fd</path>", a kernel capture "read … /path" for a device read and "call … /path"
    // for a read call, which the page cache may have served (docs/trace-import.md §2). As the import
    // does, a capture's device reads are its reads only where it holds no read call of any file.
    const QByteArray path = '/' + file.toUtf8();
    bool anyCall = false, deviceRead = false;
    while (!trace.atEnd()) {
        const QByteArray line = trace.readLine(1 << 16).trimmed();
        if (line.contains(QByteArray(path + '>')) || (line.startsWith("call ") && line.endsWith(path)))
            return true;
        anyCall = anyCall || line.startsWith("call ");
        deviceRead = deviceRead || (line.startsWith("read ") && line.endsWith(path));
    }
    return deviceRead && !anyCall;
}

} // namespace la

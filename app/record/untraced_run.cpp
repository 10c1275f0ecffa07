// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/untraced_run.h"

#include "record/buffer_cache.h"
#include "record/cache_snapshot.h"
#include "record/query_plan.h"
#include "record/recording_log.h"

namespace la {

UntracedRun runUntraced(PgSession& session, const QString& analyze, bool traced, BufferCache& buffers,
                        const CacheSnapshot& snapshot, bool cold, const QStringList& files,
                        RecordingLog& log) {
    UntracedRun run;
    if (!traced) {
        run.whyNone = QStringLiteral("nothing was traced");
    } else if (!buffers.available()) {
        run.whyNone = QStringLiteral("without pg_buffercache the cache state of the start cannot be checked");
    } else {
        log.step(QStringLiteral("restoring the cache state of the start"));
        if (restoreSnapshot(buffers, snapshot, run.whyNone)) {
            if (cold)
                emptyOsCache(files, log);
            log.step(QStringLiteral("running the query, untraced"));
            run.plan = session.value(analyze, {}, QStringLiteral("the query"));
        } else if (run.whyNone.isEmpty()) {
            run.whyNone = QStringLiteral("the relation's buffers could not be brought back to the start's");
        }
    }
    if (!run.whyNone.isEmpty())
        log.note(
            QStringLiteral("the query ran once, traced, and PostgreSQL's figures are the traced run's: %1")
                .arg(run.whyNone));
    return run;
}

QJsonObject tracingOverhead(const QString& tracedPlan, const UntracedRun& untraced, RecordingLog& log) {
    const std::optional<double> tracedMs = executionMs(tracedPlan);
    const std::optional<double> untracedMs =
        untraced.plan.isEmpty() ? std::nullopt : executionMs(untraced.plan);
    if (!(tracedMs && untracedMs && *untracedMs > 0))
        return {{QStringLiteral("measured"), false}, {QStringLiteral("why"), untraced.whyNone}};
    log.note(QStringLiteral("tracing cost: the query ran %1 ms traced, %2 ms untraced (%3×)")
                 .arg(*tracedMs, 0, 'f', 1)
                 .arg(*untracedMs, 0, 'f', 1)
                 .arg(*tracedMs / *untracedMs, 0, 'f', 2));
    return {{QStringLiteral("traced_ms"), *tracedMs},
            {QStringLiteral("untraced_ms"), *untracedMs},
            {QStringLiteral("ratio"), *tracedMs / *untracedMs}};
}

} // namespace la

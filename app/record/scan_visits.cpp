// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/scan_visits.h"

#include "files/held_directory.h"
#include "record/node_visits.h"
#include "record/query_check.h"
#include "record/recording_log.h"
#include "record/server_facts.h"
#include "record/visit_blocks.h"
#include "record/work_file.h"

namespace la {

namespace {

ScanVisits queriedVisits(const QString& visitsQuery, PgSession& control, const RecordedRelation& heap,
                         bool local, const HeldDirectory& work) {
    const QString what = QStringLiteral("--visits-query");
    const QString sql = withoutTrailingSemicolons(visitsQuery);
    const ReadOnlyTransaction transaction(control);
    requireReadOnlyQuery(control, sql, what);
    const WrittenVisits written = writeVisitBlocks(control, sql, heap, what, work);
    return {{{QStringLiteral("source"), QStringLiteral("visits-query")},
             {QStringLiteral("query"), visitsQuery},
             {QStringLiteral("count"), qint64(written.visits)}},
            visitBlocksArgs(work, heap, local)};
}

// A sequential scan's stream is READ_STREAM_SEQUENTIAL: with the relation's size and the server's
// figures, the model picks the server's strategy (BULKREAD above a quarter of shared_buffers).
ScanVisits sequentialVisits(const RecordedRelation& heap) {
    return {{{QStringLiteral("source"), QStringLiteral("sequential")},
             {QStringLiteral("count"), qint64(heap.blocks)}},
            {QStringLiteral("--dataset"), QStringLiteral("seq"), QStringLiteral("--pattern-blocks"),
             QString::number(heap.blocks), QStringLiteral("--stream-flags"), QStringLiteral("sequential")}};
}

ScanVisits btreeVisits(const RecordedScan& scan, const KeyCondition& keyRange, const QString& dataDirectory) {
    const QString range = QStringLiteral("%1:%2").arg(keyRange.lo).arg(keyRange.hi);
    const QString direction = scan.node.backward ? QStringLiteral("backward") : QStringLiteral("forward");
    return {{{QStringLiteral("source"), QStringLiteral("btree")},
             {QStringLiteral("index"), scan.index->name},
             {QStringLiteral("key_range"), range},
             {QStringLiteral("direction"), direction}},
            {QStringLiteral("--pg-datadir"), dataDirectory, QStringLiteral("--pg-index"),
             scan.index->filePath, QStringLiteral("--pg-heap"), scan.heap.filePath,
             QStringLiteral("--pg-key"), keyRange.keyType, QStringLiteral("--pg-key-range"), range,
             QStringLiteral("--direction"), direction}};
}

} // namespace

ScanVisits scanVisits(const QString& visitsQuery, PgSession& control, const RecordedScan& scan,
                      const ExplainNode& ran, const QStringList& settings, const ServerFacts& facts,
                      bool observed, const HeldDirectory& work, RecordingLog& log) {
    log.step(QStringLiteral("reading the visits"));
    if (!visitsQuery.isEmpty())
        return queriedVisits(visitsQuery, control, scan.heap, facts.local, work);
    if (scan.sequential())
        return sequentialVisits(scan.heap);
    // A local btree's own files give the visits where its key range can be read: exact, and a session
    // saved from the recording can run its model again without the recording's work files.
    if (scan.keyRange && scan.index && facts.local)
        return btreeVisits(scan, *scan.keyRange, facts.dataDirectory);
    QString whyNotServer;
    try {
        return {serverVisits(control, scan, ran, settings, work, log),
                visitBlocksArgs(work, scan.heap, facts.local)};
    } catch (const RecordError& error) {
        if (control.cancelled())
            throw;
        whyNotServer = error.message();
    }
    const QString why = whyNotServer;
    if (!observed)
        throw RecordError(
            QStringLiteral("the scan's visits cannot be worked out (%1) and nothing was traced: "
                           "give --visits-query SQL returning its ctids in visit order")
                .arg(why));
    log.note(
        QStringLiteral("the scan's visits cannot be worked out (%1): the model replays the observed reads, "
                       "so its hits are missing; give --visits-query SQL returning ctids in visit order")
            .arg(why));
    return {{{QStringLiteral("source"), QStringLiteral("trace")}, {QStringLiteral("why"), why}}, {}};
}

} // namespace la

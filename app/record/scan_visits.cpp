// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/scan_visits.h"

#include "io/held_directory.h"
#include "record/query_check.h"
#include "record/query_plan.h"
#include "record/recording_log.h"
#include "record/server_facts.h"
#include "record/work_file.h"

#include <QRegularExpression>

namespace la {

namespace {

// At most this many visits from --visits-query: 2^32 blocks is PostgreSQL's own limit per relation,
// but a list of visits is held in memory.
constexpr std::size_t kMaxVisits = 200'000'000;

// How many rows of --visits-query are fetched at a time: what is held in memory of its answer.
constexpr int kVisitsBatch = 100'000;

// The block of one row of --visits-query: a ctid "(12,3)" or a block number. `row` counts from 1.
std::uint64_t visitedBlock(const QString& cell, std::uint64_t row, const RecordedRelation& relation) {
    static const QRegularExpression ctid(QStringLiteral(R"(^\((\d+),\d+\)$)"));
    const QRegularExpressionMatch match = ctid.match(cell);
    bool ok = false;
    const qulonglong block = (match.hasMatch() ? match.captured(1) : cell).toULongLong(&ok);
    if (!ok || block > 0xFFFFFFFEULL)
        throw RecordError(QStringLiteral("--visits-query returned \"%1\" in row %2: give a ctid or a block "
                                         "number per row, in the scan's visit order")
                              .arg(cell.left(40))
                              .arg(row));
    if (block >= relation.blocks)
        throw RecordError(QStringLiteral("--visits-query returned block %1 in row %2, past the end of %3 "
                                         "(%4 blocks): give the visits of the scan's own relation")
                              .arg(block)
                              .arg(row)
                              .arg(relation.name)
                              .arg(relation.blocks));
    return block;
}

// The visits --visits-query gives, in its row order, fetched in batches through a cursor and written
// to `out` as they come, at most kMaxVisits of them. It runs in a read-only transaction of the
// control session, rolled back. Returns the count. A visit past the end of `relation`, the scan's, is
// no visit of it.
std::uint64_t streamVisits(PgSession& control, const QString& sql, const RecordedRelation& relation,
                           OutputFile& out) {
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
            lines += std::to_string(visitedBlock(row.value(0).trimmed(), count + 1, relation));
            lines += '\n';
            ++count;
        }
        asRecordError([&] { out.write(lines); });
    }
}

ScanVisits queriedVisits(const QString& visitsQuery, PgSession& control, const RecordedRelation& heap,
                         const HeldDirectory& work) {
    const std::uint64_t count = asRecordError([&] {
        OutputFile visitsFile(work, "visits.txt", "the visits");
        const std::uint64_t streamed =
            streamVisits(control, withoutTrailingSemicolons(visitsQuery), heap, visitsFile);
        visitsFile.commit();
        return streamed;
    });
    return {{{QStringLiteral("source"), QStringLiteral("visits-query")},
             {QStringLiteral("query"), visitsQuery},
             {QStringLiteral("count"), qint64(count)}},
            {QStringLiteral("--blocks"), QString::fromStdString(work.filePath("visits.txt")),
             QStringLiteral("--relation-blocks"), QString::number(std::max<qint64>(1, qint64(heap.blocks)))}};
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
                      const ServerFacts& facts, bool observed, const HeldDirectory& work, RecordingLog& log) {
    if (!visitsQuery.isEmpty()) {
        log.step(QStringLiteral("reading the visits"));
        return queriedVisits(visitsQuery, control, scan.heap, work);
    }
    if (scan.sequential())
        return sequentialVisits(scan.heap);
    if (scan.keyRange && scan.index && facts.local)
        return btreeVisits(scan, *scan.keyRange, facts.dataDirectory);
    const QString why = !scan.whyNoKeyRange.isEmpty() ? scan.whyNoKeyRange
                        : !facts.local ? QStringLiteral("the index files are on another machine")
                                       : QStringLiteral("it is a %1").arg(scan.node.nodeType);
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

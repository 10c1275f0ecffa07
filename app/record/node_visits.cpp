// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/node_visits.h"

#include "record/derived_plan.h"
#include "record/index_order.h"
#include "record/query_check.h"
#include "record/recording_log.h"
#include "record/server_connections.h"
#include "record/visit_blocks.h"
#include "record/work_file.h"

#include <cmath>
#include <optional>
#include <vector>

namespace la {

namespace {

QString what() {
    return QStringLiteral("the server's visits of the node");
}

// Settings under which the planner has only an index scan left for a query of ctids, and no sort to
// put above it: the node's own index scan, or another plan the check refuses.
QStringList indexScanOnly() {
    return {QStringLiteral("enable_seqscan=off"),       QStringLiteral("enable_bitmapscan=off"),
            QStringLiteral("enable_indexonlyscan=off"), QStringLiteral("enable_tidscan=off"),
            QStringLiteral("enable_sort=off"),          QStringLiteral("max_parallel_workers_per_gather=0")};
}

// The plan of the ctids' query must be the node's own index scan, with nothing above it that changes
// the order of its rows.
void requireSameScan(const QString& planJson, const ExplainNode& planned) {
    const DerivedPlan plan = derivedPlan(planJson, what());
    if (plan.scans.size() == 1 && !plan.sorted) {
        const ExplainNode* scan = plan.find(QStringLiteral("Index Scan"), planned.index);
        if (scan && scan->indexCondition == planned.indexCondition && scan->backward == planned.backward)
            return;
    }
    throw RecordError(
        QStringLiteral("the server would not run the node's own index scan (%1 using %2, Index Cond "
                       "%3%4) for its ctids: it planned %5")
            .arg(planned.nodeType, planned.index, planned.indexCondition,
                 planned.backward ? QStringLiteral(", backward") : QString(), plan.shown));
}

// The blocks of `heap` the visibility map does not mark all visible, from pg_visibility where the
// database has it (a recording never installs it: that would write to the database), read in the
// transaction `control` is in. Nothing, with `why` set, where they cannot be had.
std::optional<std::vector<bool>> pagesNotAllVisible(PgSession& control, const RecordedRelation& heap,
                                                    QString& why) {
    bool numeric = false;
    heap.oid.toULongLong(&numeric);
    if (!numeric) {
        why = QStringLiteral("the catalog gave the table no oid");
        return std::nullopt;
    }
    if (control.value(QStringLiteral("SELECT 1 FROM pg_extension WHERE extname = 'pg_visibility'"))
            .isEmpty()) {
        why = QStringLiteral("pg_visibility is not installed in this database, and record never installs it "
                             "(that would write to the database); a superuser can run CREATE EXTENSION "
                             "pg_visibility (it ships with PostgreSQL's contrib) for the visits of an Index "
                             "Only Scan whose Heap Fetches are not every visit");
        return std::nullopt;
    }
    std::vector<bool> pages(heap.blocks, false);
    try {
        control.query(QStringLiteral("SAVEPOINT lookahead_vm"));
        // DECLARE takes no parameters: the oid is the catalog's number, checked above.
        control.query(QStringLiteral("DECLARE lookahead_vm NO SCROLL CURSOR FOR SELECT blkno FROM "
                                     "pg_visibility_map(%1::oid::regclass) WHERE NOT all_visible")
                          .arg(heap.oid),
                      {}, QStringLiteral("reading the visibility map"));
        for (;;) {
            const PgSession::Rows rows =
                control.query(QStringLiteral("FETCH FORWARD 100000 FROM lookahead_vm"), {},
                              QStringLiteral("reading the visibility map"));
            if (rows.empty())
                break;
            for (const QStringList& row : rows) {
                bool ok = false;
                const qulonglong block = row.value(0).toULongLong(&ok);
                if (ok && block < pages.size())
                    pages[block] = true;
            }
        }
        control.query(QStringLiteral("RELEASE SAVEPOINT lookahead_vm"));
        return pages;
    } catch (const RecordError& error) {
        if (error.sqlState().isEmpty()) // cancelled or the connection lost: no answer of the server's
            throw;
        why = error.message(); // e.g. a role without the right to run pg_visibility_map()
        control.query(QStringLiteral("ROLLBACK TO SAVEPOINT lookahead_vm"));
        return std::nullopt;
    }
}

} // namespace

QJsonObject serverVisits(PgSession& control, const RecordedScan& scan, const ExplainNode& ran,
                         const QStringList& settings, const HeldDirectory& work, RecordingLog& log) {
    const QString& type = scan.node.nodeType;
    const bool indexOnly = type == QLatin1String("Index Only Scan");
    const bool bitmap = type == QLatin1String("Bitmap Heap Scan");
    if (!bitmap && !indexOnly && type != QLatin1String("Index Scan"))
        throw RecordError(
            QStringLiteral("the server gives the visits of index and bitmap heap scans, not of a %1")
                .arg(type));
    if (ran.loops.value_or(1) > 1)
        throw RecordError(
            QStringLiteral("the node ran %1 times, and the visits of each of its scans are not asked "
                           "of the server")
                .arg(*ran.loops));
    if (!bitmap && !scan.index)
        throw RecordError(QStringLiteral("the plan names no index of the %1").arg(type));

    QJsonObject json{{QStringLiteral("source"), QStringLiteral("server")}};
    const ReadOnlyTransaction transaction(control);
    std::function<bool(std::uint64_t)> reaches;
    std::optional<std::vector<bool>> notAllVisible;
    if (indexOnly) {
        QString whyNoMap;
        notAllVisible = pagesNotAllVisible(control, scan.heap, whyNoMap);
        const std::uint64_t fetches = std::uint64_t(std::llround(ran.heapFetches.value_or(0)));
        if (notAllVisible) {
            json[QStringLiteral("visibility")] = QStringLiteral("pg_visibility");
            reaches = [&](std::uint64_t block) { return (*notAllVisible)[block]; };
        } else if (ran.heapFetches && fetches == ran.rowsVisited() && fetches > 0) {
            json[QStringLiteral("visibility")] = QStringLiteral("Heap Fetches: every visit");
        } else {
            throw RecordError(
                QStringLiteral("EXPLAIN's Heap Fetches says %1 of the Index Only Scan's %2 visits "
                               "reached the heap, a count, not which ones, and the visibility "
                               "map cannot be read (%3)")
                    .arg(fetches)
                    .arg(ran.rowsVisited())
                    .arg(whyNoMap));
        }
    }

    const QString alias = quotedIdentifier(scan.node.alias.isEmpty() ? scan.node.relation : scan.node.alias);
    const QString condition = bitmap ? scan.node.recheckCondition : scan.node.indexCondition;
    const QString from = QStringLiteral(" FROM %1 %2").arg(scan.heap.name, alias) +
                         (condition.isEmpty() ? QString() : QStringLiteral(" WHERE ") + condition);
    QString sql;
    if (bitmap) {
        if (condition.isEmpty())
            throw RecordError(QStringLiteral("the plan's Bitmap Heap Scan has no Recheck Cond"));
        applySettings(control, settings, SettingScope::Transaction);
        sql = QStringLiteral("SELECT DISTINCT (%1.ctid::text::point)[0]::bigint").arg(alias) + from +
              QStringLiteral(" ORDER BY 1");
        requireReadOnlyQuery(control, sql, what());
    } else {
        applySettings(control, settings + indexScanOnly(), SettingScope::Transaction);
        const QStringList orderBy =
            indexOrder(control, scan.index->oid, scan.index->name, scan.node.backward).keys;
        sql = QStringLiteral("SELECT %1.ctid").arg(alias) + from +
              (orderBy.isEmpty() ? QString()
                                 : QStringLiteral(" ORDER BY ") + orderBy.join(QStringLiteral(", ")));
        requireSameScan(requireReadOnlyQuery(control, sql, what()), scan.node);
    }
    const WrittenVisits written = writeVisitBlocks(control, sql, scan.heap, what(), work, reaches);
    if (written.visits == 0)
        throw RecordError(QStringLiteral("the node visits no block of %1").arg(scan.heap.name));
    json[QStringLiteral("query")] = sql;
    json[QStringLiteral("count")] = qint64(written.visits);

    QString whyNotExact;
    if (bitmap) {
        const std::uint64_t exact = ran.exactHeapBlocks.value_or(0), lossy = ran.lossyHeapBlocks.value_or(0);
        if (lossy > 0)
            whyNotExact =
                QStringLiteral("the bitmap was lossy for %1 blocks (work_mem could not hold a row's "
                               "place on each): their rows were rechecked, and a lossy range may "
                               "hold blocks no row of which matches")
                    .arg(lossy);
        else if (exact != written.visits)
            whyNotExact =
                QStringLiteral("EXPLAIN counted %1 exact heap blocks, the rows the Recheck Cond matches "
                               "now lie on %2: rows the server did not see (dead or changed since)")
                    .arg(exact)
                    .arg(written.visits);
    } else {
        json[QStringLiteral("rows_removed_by_filter")] =
            qint64(std::llround(ran.rowsRemovedByFilter.value_or(0)));
        if (written.rows != ran.rowsVisited())
            whyNotExact =
                QStringLiteral("EXPLAIN counted %1 rows of the index scan (returned or removed by its "
                               "Filter), its Index Cond now gives %2: rows changed since, dead rows "
                               "or an index that rechecks its rows")
                    .arg(ran.rowsVisited())
                    .arg(written.rows);
        else if (notAllVisible && ran.heapFetches &&
                 written.reached != std::uint64_t(std::llround(*ran.heapFetches)))
            whyNotExact =
                QStringLiteral("EXPLAIN counted %1 heap fetches, the visibility map now sends %2 visits "
                               "to the heap: it changed since the query ran")
                    .arg(qint64(std::llround(*ran.heapFetches)))
                    .arg(written.reached);
    }
    json[QStringLiteral("exact")] = whyNotExact.isEmpty();
    if (!whyNotExact.isEmpty()) {
        json[QStringLiteral("why_not_exact")] = whyNotExact;
        log.note(QStringLiteral("the visits the server gave are not exact: ") + whyNotExact);
    }
    return json;
}

} // namespace la

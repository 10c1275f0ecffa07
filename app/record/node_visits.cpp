// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/node_visits.h"

#include "experiment/plan_nodes.h"
#include "record/query_check.h"
#include "record/recording_log.h"
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

// Each NAME=VALUE of `settings` for the transaction `control` is in; it must stay read-only.
void applyLocally(PgSession& control, const QStringList& settings) {
    for (const QString& setting : settings) {
        const qsizetype equals = setting.indexOf(QLatin1Char('='));
        if (equals <= 0)
            throw RecordError(
                QStringLiteral("--set %1: expected NAME=VALUE, e.g. enable_bitmapscan=off").arg(setting));
        control.query(QStringLiteral("SELECT set_config($1, $2, true)"),
                      {setting.left(equals).trimmed(), setting.mid(equals + 1).trimmed()},
                      QStringLiteral("--set ") + setting);
    }
    if (control.value(QStringLiteral("SELECT current_setting('transaction_read_only')")) !=
        QLatin1String("on"))
        throw RecordError(
            QStringLiteral("the visits' transaction is not read-only after the --set settings"));
}

QString quotedIdentifier(QString name) {
    return QLatin1Char('"') + name.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

// The ORDER BY that has a btree index return its rows in the order a scan of `direction` does: each
// key column with its own order, reversed for a backward scan. Nothing for another access method
// (its scans have one order, and an ORDER BY would put a sort above them).
QStringList indexOrder(PgSession& control, const RecordedRelation& index, bool backward) {
    const PgSession::Rows columns =
        control.query(QStringLiteral("SELECT am.amname, pg_get_indexdef(i.indexrelid, k.n, true), "
                                     "(i.indoption[k.n - 1] & 1) <> 0, (i.indoption[k.n - 1] & 2) <> 0 "
                                     "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                                     "JOIN pg_am am ON am.oid = c.relam "
                                     "CROSS JOIN LATERAL generate_series(1, i.indnkeyatts) k(n) "
                                     "WHERE i.indexrelid = $1::oid ORDER BY k.n"),
                      {index.oid}, QStringLiteral("reading the index's key columns"));
    if (columns.empty() || columns.front().size() < 4)
        throw RecordError(
            QStringLiteral("the server's catalog lists no key column of the index %1").arg(index.name));
    if (columns.front()[0] != QLatin1String("btree"))
        return {};
    QStringList orderBy;
    for (const QStringList& column : columns) {
        const bool descending = (column[2] == QLatin1String("t")) != backward;
        const bool nullsFirst = (column[3] == QLatin1String("t")) != backward;
        orderBy << column[1] + (descending ? QStringLiteral(" DESC") : QStringLiteral(" ASC")) +
                       (nullsFirst ? QStringLiteral(" NULLS FIRST") : QStringLiteral(" NULLS LAST"));
    }
    return orderBy;
}

// The plan of the ctids' query must be the node's own index scan, with nothing above it that changes
// the order of its rows.
void requireSameScan(const QString& planJson, const ExplainNode& planned) {
    const ExplainOutput plan = asRecordError(
        [&] { return parseExplainOutput(planJson.toUtf8(), QStringLiteral("the plan of ") + what()); });
    const ExplainNode* scan = nullptr;
    int scans = 0;
    bool sorted = false;
    QStringList shown;
    for (const ExplainNode& node : plan.nodes) {
        shown << node.nodeType + (node.index.isEmpty() ? QString() : QStringLiteral(" using ") + node.index) +
                     (node.backward ? QStringLiteral(" (backward)") : QString());
        sorted = sorted || node.nodeType.contains(QLatin1String("Sort"));
        if (readsRelation(node)) {
            scan = &node;
            ++scans;
        }
    }
    if (scans == 1 && !sorted && scan->nodeType == QLatin1String("Index Scan") &&
        scan->index == planned.index && scan->indexCondition == planned.indexCondition &&
        scan->backward == planned.backward)
        return;
    throw RecordError(
        QStringLiteral("the server would not run the node's own index scan (%1 using %2, Index Cond "
                       "%3%4) for its ctids: it planned %5")
            .arg(planned.nodeType, planned.index, planned.indexCondition,
                 planned.backward ? QStringLiteral(", backward") : QString(),
                 shown.join(QStringLiteral(" > "))));
}

// The blocks of `heap` the visibility map does not mark all visible, from pg_visibility, which is
// created for this where it is missing and dropped with the transaction it was created in (rolled
// back: a recording killed meanwhile leaves nothing). Nothing, with `why` set, where it cannot be had.
std::optional<std::vector<bool>> pagesNotAllVisible(PgSession& control, const RecordedRelation& heap,
                                                    QString& why) {
    bool numeric = false;
    heap.oid.toULongLong(&numeric);
    if (!numeric) {
        why = QStringLiteral("the catalog gave the table no oid");
        return std::nullopt;
    }
    std::vector<bool> pages(heap.blocks, false);
    try {
        control.query(QStringLiteral("BEGIN"));
        control.query(QStringLiteral("CREATE EXTENSION IF NOT EXISTS pg_visibility"), {},
                      QStringLiteral("creating the extension pg_visibility"));
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
        control.query(QStringLiteral("ROLLBACK"));
        return pages;
    } catch (const RecordError& error) {
        why = error.message();
        try {
            control.query(QStringLiteral("ROLLBACK"));
        } catch (const RecordError&) {
            // Cancelled or the connection lost: closing the session rolls the transaction back.
        }
        return std::nullopt;
    }
}

// Rows of an index scan's own: those it returned and those its Filter removed, all heap visits.
std::uint64_t indexRows(const ExplainNode& ran) {
    return std::uint64_t(std::llround(ran.actualRows.value_or(0) + ran.rowsRemovedByFilter.value_or(0)));
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
    std::function<bool(std::uint64_t)> reaches;
    std::optional<std::vector<bool>> notAllVisible;
    if (indexOnly) {
        // Read before the visits' read-only transaction: pg_visibility may have to be created.
        QString whyNoMap;
        notAllVisible = pagesNotAllVisible(control, scan.heap, whyNoMap);
        const std::uint64_t fetches = std::uint64_t(std::llround(ran.heapFetches.value_or(0)));
        if (notAllVisible) {
            json[QStringLiteral("visibility")] = QStringLiteral("pg_visibility");
            reaches = [&](std::uint64_t block) { return (*notAllVisible)[block]; };
        } else if (ran.heapFetches && fetches == indexRows(ran) && fetches > 0) {
            json[QStringLiteral("visibility")] = QStringLiteral("Heap Fetches: every visit");
        } else {
            throw RecordError(
                QStringLiteral("EXPLAIN's Heap Fetches says %1 of the Index Only Scan's %2 visits "
                               "reached the heap, a count, not which ones, and the visibility "
                               "map cannot be read (%3)")
                    .arg(fetches)
                    .arg(indexRows(ran))
                    .arg(whyNoMap));
        }
    }

    const ReadOnlyTransaction transaction(control);
    const QString alias = quotedIdentifier(scan.node.alias.isEmpty() ? scan.node.relation : scan.node.alias);
    const QString condition = bitmap ? scan.node.recheckCondition : scan.node.indexCondition;
    const QString from = QStringLiteral(" FROM %1 %2").arg(scan.heap.name, alias) +
                         (condition.isEmpty() ? QString() : QStringLiteral(" WHERE ") + condition);
    QString sql;
    if (bitmap) {
        if (condition.isEmpty())
            throw RecordError(QStringLiteral("the plan's Bitmap Heap Scan has no Recheck Cond"));
        applyLocally(control, settings);
        sql = QStringLiteral("SELECT DISTINCT (%1.ctid::text::point)[0]::bigint").arg(alias) + from +
              QStringLiteral(" ORDER BY 1");
        requireReadOnlyQuery(control, sql, what());
    } else {
        applyLocally(control, settings + indexScanOnly());
        const QStringList orderBy = indexOrder(control, *scan.index, scan.node.backward);
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
        if (written.rows != indexRows(ran))
            whyNotExact =
                QStringLiteral("EXPLAIN counted %1 rows of the index scan (returned or removed by its "
                               "Filter), its Index Cond now gives %2: rows changed since, dead rows "
                               "or an index that rechecks its rows")
                    .arg(indexRows(ran))
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

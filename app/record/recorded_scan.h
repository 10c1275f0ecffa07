// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/explain_output.h"
#include "record/pg_session.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace la {

// A relation of the scanned query, as the server names and stores it.
struct RecordedRelation {
    QString name; // schema-qualified, as quote_ident gives it
    QString oid;
    QString filePath; // pg_relation_filepath: relative to the data directory, e.g. "base/5/16390"
    std::uint64_t blocks = 0;
};

// The range an Index Scan's condition puts on the index's leading integer key, as --pg-key and
// --pg-key-range take it.
struct KeyCondition {
    QString keyType; // "int2", "int4" or "int8"
    qint64 lo = 0, hi = 0;
};

// A scan node of a recording: the node, its table and index.
struct RecordedScan {
    ExplainNode node;
    RecordedRelation heap; // a Bitmap Index Scan's: its Bitmap Heap Scan's table
    std::optional<RecordedRelation> index;
    // Set for an Index Scan whose condition is a range on an int2/int4/int8 leading key.
    std::optional<KeyCondition> keyRange;
    // Why the visits cannot come from the btree (a condition of another form), or empty.
    QString whyNoKeyRange;

    bool sequential() const { return node.nodeType == QLatin1String("Seq Scan"); }
};

// The scan `node` of a plan (EXPLAIN VERBOSE, FORMAT JSON) and its relations' files, the table
// named by `heapNode` (the node itself, or a Bitmap Index Scan's Bitmap Heap Scan). Throws
// RecordError where the catalog does not list them.
RecordedScan recordedScanOf(const ExplainNode& node, const ExplainNode& heapNode, PgSession& session);

// The key range of an index condition on `column`: "(a <= 20000)", "((a >= 5) AND (a < 9))",
// qualified or cast. Nothing for any other form, with `why` set.
std::optional<KeyCondition> keyRangeOf(const QString& condition, const QString& column,
                                       const QString& keyType, QString& why);

} // namespace la

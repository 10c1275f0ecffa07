// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/recorded_plan.h"
#include "record/scan_visits.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace la {

class HeldDirectory;
class RecordingLog;

// For the node `nodeId` of the planned query (`plannedJson`: EXPLAIN VERBOSE, FORMAT JSON): nothing
// where it is not the inner Index Scan of a nested loop; else the query that gives its visits per
// outer row (docs/recording.md, "Plans"), or why none can. `control` reads the index's keys.
std::optional<RescanQuery> rescanQueryOf(const QString& plannedJson, const RecordedPlan& plan, int nodeId,
                                         PgSession& control);

// Runs `query` on `session`, the query's own (its settings, its read-only transaction), once its plan
// is checked to scan what the query's plan did, and writes the inner scan's visits to the work
// directory as a block list: each outer row's heap blocks in the scan's order, a `reset` line between
// two outer rows (an outer row with no inner row is a rescan too). `loops` is the inner node's Actual
// Loops, which the outer rows must number; `local`: the server's files are here. Nothing, with `why` set,
// where the server's answer is not the scan's: its plan differs, it fails, or its rows are not the loops.
// Throws RecordError where the session fails otherwise (a cancel, a lost connection) or a work file cannot be
// written.
std::optional<ScanVisits> rescanVisits(const RescanQuery& query, PgSession& session,
                                       const RecordedRelation& heap, std::uint64_t loops, bool local,
                                       const HeldDirectory& work, QString& why);

} // namespace la

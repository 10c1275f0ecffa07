// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The visits of an index or bitmap scan node, asked of the server that ran it (docs/recording.md,
// "Plans"): any index type, key type, operator class, collation and direction.

#include "record/recorded_scan.h"

#include <QJsonObject>
#include <QStringList>

namespace la {

class HeldDirectory;
class RecordingLog;

// The visits of `scan` (its node as planned; `ran`, the same node as it ran, with EXPLAIN ANALYZE's
// figures), written to the work directory's visits.txt (visit_blocks.h) from the control session
// under the recording's `settings` (NAME=VALUE):
// - an Index Scan's: its ctids in the executor's order, the same index scan forced and checked to be
//   the one planned (node type, index, Index Cond, direction); a Filter's rows are heap visits too;
// - an Index Only Scan's: those of the same index scan that reach the heap, where the visibility
//   map (pg_visibility) does not say their page is all visible;
// - a Bitmap Heap Scan's: the blocks of the rows its Recheck Cond matches, in ascending order.
// Returns "recorded"'s "visits": "source": "server", the query, the count, and whether the visits are
// exact ("exact", and "why_not_exact" where not). Throws RecordError saying why the server cannot
// give them (a node rescanned, a condition on another node's rows, another plan).
QJsonObject serverVisits(PgSession& control, const RecordedScan& scan, const ExplainNode& ran,
                         const QStringList& settings, const HeldDirectory& work, RecordingLog& log);

} // namespace la

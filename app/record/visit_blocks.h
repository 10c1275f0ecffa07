// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/recorded_scan.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>

namespace la {

class HeldDirectory;

// What a query of a scan's visits gave: its rows, those that reach the heap, and the visits written.
struct WrittenVisits {
    std::uint64_t rows = 0;
    std::uint64_t reached = 0; // the rows whose block `reaches` accepted
    std::uint64_t visits = 0;
};

// Runs `sql` on `control` in the transaction it is in (one ctid "(12,3)" or block number a row, in
// visit order) and writes the visits' blocks to the work directory's visits.txt as they come, in
// batches through a cursor, at most a recording's limit of them. `reaches` (if set) keeps only the
// visits of the blocks it accepts; a visit to the block of the visit before it is none (the page
// is still pinned), as the btree reader counts them. A block past the end of `relation` is refused. Throws
// RecordError naming `what` ("--visits-query").
WrittenVisits writeVisitBlocks(PgSession& control, const QString& sql, const RecordedRelation& relation,
                               const QString& what, const HeldDirectory& work,
                               const std::function<bool(std::uint64_t block)>& reaches = {});

// The options that give the model the visits written to the work directory's visits.txt: a local
// server's table is a file here, whose size the model takes itself (and whose reads a trace must
// have); another server's is a relation of the recorded size.
QStringList visitBlocksArgs(const HeldDirectory& work, const RecordedRelation& relation, bool local);

} // namespace la

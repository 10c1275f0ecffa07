// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>

namespace la {

// How the server is asked for the visits of a nested loop's inner Index Scan, rescanned once per
// outer row (record/rescan_visits.h): one query whose rows are the outer rows in the executor's
// order, each with the inner scan's ctids for it in the index's order. Where the visits cannot be had
// exactly, `sql` is empty and `why` says why.
struct RescanQuery {
    QString sql;
    QString why;
    // What the plan of `sql` must scan, as the query's plan did: the outer node and the inner index.
    QString outerType, outerRelation, outerIndex;
    QString innerIndex;
    // A semi or anti join, or an inner side the planner proved unique: the scan stops at its first row.
    bool firstRowOnly = false;
    // The outer node's id and heap (its name and size in blocks): the plan's visits put the outer
    // scan's blocks beside the inner one's (docs/plan-runs.md).
    int outerNode = -1, innerNode = -1;
    QString outerHeap;
    std::uint64_t outerBlocks = 0;
};

} // namespace la

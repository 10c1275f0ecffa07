// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A parsed EXPLAIN plan: what the parsers (explain_parser) build and the readers of EXPLAIN output
// (explain_output) hand on.

#include <QString>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace la {

// One plan node of EXPLAIN (ANALYZE, BUFFERS[, IO]) output, with the figures Lookahead compares with
// a run: what the server itself counted (docs/explain-output.md). A figure the output did not print
// is empty.
struct ExplainNode {
    QString nodeType;         // "Seq Scan", "Index Scan", "Bitmap Heap Scan", ...
    QString relation;         // the table it scans, if any
    QString index;            // the index it uses, if any
    QString schema;           // the relation's schema (FORMAT JSON with VERBOSE)
    QString alias;            // the relation's name in the query (FORMAT JSON), e.g. "t1"
    QString indexCondition;   // "Index Cond" (FORMAT JSON), e.g. "(a <= 20000)"
    QString recheckCondition; // a Bitmap Heap Scan's "Recheck Cond" (FORMAT JSON)
    bool backward = false;
    int depth = 0; // 0 for the top node
    std::optional<std::uint64_t> sharedHit, sharedRead, sharedDirtied, sharedWritten;
    std::optional<double> sharedReadMs; // I/O Timings: shared read=
    std::optional<double> actualRows;
    std::optional<std::uint64_t> loops;
    // Per loop, as EXPLAIN prints them (FORMAT JSON).
    std::optional<double> rowsRemovedByFilter, heapFetches;
    // A Bitmap Heap Scan's pages, those whose bitmap kept each row and those it kept as a whole.
    std::optional<std::uint64_t> exactHeapBlocks, lossyHeapBlocks;
    // PostgreSQL 19's read-stream lines (docs/explain-io.md).
    std::optional<double> prefetchAvg;
    std::optional<std::uint64_t> prefetchMax, prefetchCapacity;
    std::optional<std::uint64_t> ioCount, ioWaits;
    std::optional<double> ioSize, ioInProgress;

    // The rows an index scan visited per loop: those it returned and those its Filter removed.
    std::uint64_t rowsVisited() const {
        return std::uint64_t(std::llround(actualRows.value_or(0) + rowsRemovedByFilter.value_or(0)));
    }
};

struct ExplainOutput {
    enum class Format { Text, Json };
    Format format = Format::Text;
    std::vector<ExplainNode> nodes; // in plan order, parents before children
    std::optional<double> planningMs, executionMs;

    // The node that scans `relation` (a heap scan, or an index scan of it); the only scan node when
    // `relation` is empty and there is exactly one. Null if there is none, or several and no name.
    const ExplainNode* scanOf(const QString& relation) const;
};

} // namespace la

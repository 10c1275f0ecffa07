// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace la {

// One plan node of EXPLAIN (ANALYZE, BUFFERS[, IO]) output, with the figures Lookahead compares with
// a run: what the server itself counted (docs/explain-output.md). A figure the output did not print
// is empty.
struct ExplainNode {
    QString nodeType;       // "Seq Scan", "Index Scan", "Bitmap Heap Scan", ...
    QString relation;       // the table it scans, if any
    QString index;          // the index it uses, if any
    QString schema;         // the relation's schema (FORMAT JSON with VERBOSE)
    QString indexCondition; // "Index Cond" (FORMAT JSON), e.g. "(a <= 20000)"
    bool backward = false;
    int depth = 0; // 0 for the top node
    std::optional<std::uint64_t> sharedHit, sharedRead, sharedDirtied, sharedWritten;
    std::optional<double> sharedReadMs; // I/O Timings: shared read=
    std::optional<double> actualRows;
    std::optional<std::uint64_t> loops;
    // PostgreSQL 19's read-stream lines (docs/explain-io.md).
    std::optional<double> prefetchAvg;
    std::optional<std::uint64_t> prefetchMax, prefetchCapacity;
    std::optional<std::uint64_t> ioCount, ioWaits;
    std::optional<double> ioSize, ioInProgress;
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

// Parses EXPLAIN output as psql prints it (text or FORMAT JSON, aligned or unaligned, with or without
// the "QUERY PLAN" header), PostgreSQL 15 to 19. Untrusted: throws InputError naming `fileName`, the
// line and what is wrong.
ExplainOutput parseExplainOutput(const QByteArray& bytes, const QString& fileName);
// Reads and parses a file of it (at most kMaxExplainBytes).
ExplainOutput readExplainOutput(const QString& path);

inline constexpr qint64 kMaxExplainBytes = 64ll << 20;

// The scan node that an observed run is compared with: the plan's only scan. Throws InputError
// naming the file when it has none or several (listing them).
const ExplainNode& observedScanOf(const ExplainOutput& plan, const QString& fileName);
// The node's figures as the summary JSON keeps them ("postgresql_explain" of the observed run).
QJsonObject serverExplainJson(const ExplainOutput& plan, const ExplainNode& scan);
// Such figures (as the summary JSON and a session keep them) as lines for the CLI, two spaces in.
QString describeServerExplain(const QJsonObject& explain);
// PostgreSQL 19's own count of the scan's waits (I/O: waits=), which a syscall trace of I/O workers
// cannot give, becomes the observed run's: with I/O Timings' shared read time as their time where
// printed. Returns false (and leaves `observed` alone) when the node has no such figure.
bool takeServerWaits(const ExplainNode& scan, RunSummary& observed);

// Reads the EXPLAIN file at `path` and puts its scan node's figures in `observed`: its waits
// (takeServerWaits) and RunSummary::serverExplain. Throws InputError for a bad file.
void takeServerExplain(const QString& path, RunSummary& observed);

} // namespace la

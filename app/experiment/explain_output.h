// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/explain_plan.h"
#include "summary.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace la {

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

// The EXPLAIN output a recorded session kept for its observed run (its modelled node alone, else the
// untraced run's plan, else the traced one's: the one the recording's replay read), as that file's bytes;
// empty when it has none (not a recording, or a plan too long for the session). Run again, it gives the same
// figures.
QByteArray recordedExplain(const QJsonObject& recorded);

} // namespace la

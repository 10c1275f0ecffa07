// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/recorded_scan.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace la {

class HeldDirectory;
class RecordingLog;
struct ServerFacts;

// Where the model's visits of a recorded scan come from, and the options that give them to it.
struct ScanVisits {
    QJsonObject json; // "recorded"'s "visits": its "source" and what it took
    QStringList replayArgs;
    // The model visits the scan's blocks itself; else it replays the observed reads.
    bool modelled() const { return json.value(QStringLiteral("source")) != QLatin1String("trace"); }
};

// The scan's visits: those `visitsQuery` gives (run on `control`, written to the work directory), a
// sequential scan's, those the server gives of an index or bitmap heap scan (node_visits.h: `ran` is
// the node as it ran, `settings` the recording's --set), else an Index Scan's key range read from the
// btree here, or else the trace's. Throws RecordError where there are none: no visits can be worked
// out and nothing was `observed`.
ScanVisits scanVisits(const QString& visitsQuery, PgSession& control, const RecordedScan& scan,
                      const ExplainNode& ran, const QStringList& settings, const ServerFacts& facts,
                      bool observed, const HeldDirectory& work, RecordingLog& log);

} // namespace la

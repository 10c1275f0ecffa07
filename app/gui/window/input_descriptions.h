// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed/observed_trace.h"
#include "pg/index_scan.h"
#include "run.h"

#include <QString>
#include <QStringList>

namespace la {

// What the run setup panel says about an input the user opened.

// An imported trace: the relation, its reads, and what the trace lacks.
QString traceDescription(const QString& path, const ObservedTrace& trace);
// The relation picker's entries, "name — N reads, size", each followed by a tab and its
// --trace-relation value; `current` gets the index of the relation the trace was read for.
QStringList relationChoices(const ObservedTrace& trace, int& current);
// The facts of the index scan `config` names, shown as a dataset's description is.
QString pgFactsText(const RunConfig& config, const pg::IndexFacts& facts);

} // namespace la

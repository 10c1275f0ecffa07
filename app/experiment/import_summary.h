// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed/observed_summary.h"
#include "summary.h"

#include <QString>

#include <string>
#include <vector>

namespace la {

// The observed run against its model, like with like (docs/trace-import.md §6): reads and blocks
// read always, waits where both have them, time only where `timeNotCompared` is empty (it says why
// not): "observed 923 reads (866 of 8 kB), 983 blocks; pg19 model 923 reads (866 of 8 kB), 983
// misses; waits 114 against 7; time not compared: ...". `observedNote` and `modelNote`, where given,
// follow each side's figures (what limited it). `observed` is the observed run's summary as it ran
// (its waits EXPLAIN's, where EXPLAIN gave them).
QString observedVerdict(const RunSummary& observed, const RunSummary& model, const QString& timeNotCompared,
                        const QString& observedNote = {}, const QString& modelNote = {});

// The observed run as the headless run prints it.
std::string describeObserved(const ObservedSummary& observed);

// What the user should know about an import, a line each: which file was chosen (`relationGiven`:
// the user named it), and what the trace lacks. The command line prints them as notes, the window
// lists them.
std::vector<std::string> importNotes(const ObservedTrace& trace, bool relationGiven);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "session/session_file.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace la {

// The glue between an experiment and a session file (docs/session-format.md). Saving: begin each run
// with beginSessionRun(), feed its events to the writer, end it with endSessionRun(); finishSession()
// stores the compare mode and the provenance and commits.
SessionRun sessionRunOf(const RunVariant& variant);
// Begins `variant`'s run: its options, an observed run's trace, and a modelled run's block list and
// prewarm list (list:FILE) byte for byte, so that it runs again once they are gone.
void beginSessionRun(SessionWriter& writer, const RunVariant& variant);
void endSessionRun(SessionWriter& writer, const RunSummary& summary);
void finishSession(SessionWriter& writer, const Experiment& experiment);

// The provenance of an experiment that has run (core/session/provenance.h): the file its first run
// with real I/O read, and whether any run used O_DIRECT.
NameValues experimentProvenance(const Experiment& experiment, const std::vector<RunSummary>& summaries,
                                const std::string& commandLine);

// A session read back: the experiment as it was described, its runs' exact summaries, and the open
// file for the events. Throws InputError (one line: the file, what is wrong, what to do).
struct OpenedSession {
    Experiment experiment;
    std::vector<RunSummary> summaries;
    std::unique_ptr<SessionReader> reader;
};
OpenedSession openSession(const std::string& path);

// Writes the block and prewarm lists `session` keeps into `directory` (one of ours, which outlives the
// runs) and points its modelled runs at them, so that they run again as they ran when saved (a
// recording's work files are gone by then). A run whose list the session does not keep is left as
// saved. Returns why a file could not be written, or empty; throws InputError for a damaged list.
// `progress` counts the kept bytes written; `cancel` stops between chunks (a list may be 2 GiB),
// returning "cancelled" and leaving the runs as saved.
std::string keepRunFiles(OpenedSession& session, const QString& directory,
                         const std::atomic<bool>* cancel = nullptr,
                         const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = {});

} // namespace la

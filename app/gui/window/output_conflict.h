// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <memory>
#include <vector>

namespace la {

class EventSpool;
class RunController;
class RunTrace;

// The runs on screen, each with its kept events, for a job that writes them to a file.
struct RunsToWrite {
    std::vector<const RunTrace*> traces;
    std::vector<std::shared_ptr<const EventSpool>> spools; // one per trace
    QString error; // why they cannot be written (nothing run, a run still going, events not kept)
};
// `verb` and `done` say what the job does ("save", "saved"), as the messages word it.
RunsToWrite runsToWrite(const RunController& controller, const QString& verb, const QString& done);

// Why `path` must not be written by an export or a save (it is one of the inputs of the runs on
// screen: a dataset file, a block list, an imported trace), empty if it may.
[[nodiscard]] QString outputConflict(const RunController& controller, const QString& path);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The notes the window lists under the verdict: a comparison's runs often say the same thing (each
// run's model grows its shared buffers alike), which is listed once.

#include <QString>
#include <QStringList>

#include <vector>

namespace la {

// A note as it was said, and the run it was said of (-1: of the experiment, not of one run).
struct SaidNote {
    QString text;
    int run = -1;
};

// Each distinct note once, in the order first said. One said of some of the runs but not of all of
// them is opened by their names, `runNames[run]` ("[B: pg19] …").
QStringList distinctNotes(const std::vector<SaidNote>& notes, const QStringList& runNames);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/distinct_notes.h"

#include <algorithm>
#include <set>

namespace la {

QStringList distinctNotes(const std::vector<SaidNote>& notes, const QStringList& runNames) {
    struct Distinct {
        QString text;
        std::set<int> runs;
        bool ofExperiment = false;
    };
    std::vector<Distinct> distinct;
    for (const SaidNote& note : notes) {
        auto same = std::find_if(distinct.begin(), distinct.end(),
                                 [&](const Distinct& d) { return d.text == note.text; });
        if (same == distinct.end())
            same = distinct.insert(distinct.end(), Distinct{note.text, {}, false});
        if (note.run >= 0 && note.run < runNames.size())
            same->runs.insert(note.run);
        else
            same->ofExperiment = true;
    }
    QStringList shown;
    for (const Distinct& d : distinct) {
        if (d.ofExperiment || d.runs.size() == std::size_t(runNames.size())) {
            shown << d.text;
            continue;
        }
        QStringList names;
        for (const int run : d.runs)
            names << runNames[run];
        shown << QStringLiteral("[%1] %2").arg(names.join(QStringLiteral(", ")), d.text);
    }
    return shown;
}

} // namespace la

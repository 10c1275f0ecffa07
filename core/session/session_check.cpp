// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_check.h"

#include "session_file.h"
#include "session_summary.h"

namespace la {

std::uint64_t readWholeSession(const std::string& path) {
    const SessionReader reader(path);
    std::uint64_t events = 0;
    for (std::size_t run = 0; run < reader.runs().size(); ++run) {
        const SessionRun& info = reader.runs()[run];
        summaryFromFields(info.summary, path);
        reader.readEvents(run, [&](std::span<const Event> batch) { events += batch.size(); });
        if (info.observed && !reader.observed(run))
            throw sessionDamaged(path, "observed run " + std::to_string(run) + " has no imported trace");
    }
    return events;
}

} // namespace la

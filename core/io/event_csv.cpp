// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_csv.h"

#include <cstdio>

namespace la {

EventCsvWriter::EventCsvWriter(const std::string& path, const std::string& runLabel)
    : m_file(path, "trace CSV"), m_label(runLabel) {
    m_file.write("run,time_ns,position,event,block,nblocks,io_id,in_flight,distance,combine_distance,pinned,"
                 "miss,waited\n");
}

void EventCsvWriter::onEvents(std::span<const Event> batch) {
    m_rows.clear();
    char row[160]; // the numbers of one row need at most about 120
    for (const Event& e : batch) {
        const int n =
            std::snprintf(row, sizeof row, ",%lld,%u,%s,%u,%u,%u,%u,%u,%u,%u,%d,%d\n",
                          static_cast<long long>(e.time_ns), e.position, eventKindName(e.kind), e.block,
                          e.nblocks, e.io_id, e.in_flight, e.distance, e.combine_distance, e.pinned,
                          (e.flags & event_flag::miss) ? 1 : 0, (e.flags & event_flag::waited) ? 1 : 0);
        m_rows += m_label;
        m_rows.append(row, static_cast<std::size_t>(n));
    }
    m_file.write(m_rows);
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_trace.h"

namespace la {

void DeviceTrace::add(const Event& event) {
    if (event.kind == EventKind::DeviceReadStarted)
        m_reads.push_back({{event.time_ns, event.position, event.block, event.nblocks},
                           (event.flags & event_flag::readAhead) != 0});
    else if (event.kind != EventKind::DeviceReadCompleted)
        return;
    m_depth.push_back({event.time_ns, event.position, event.in_flight});
}

double DeviceTrace::xOf(XAxis mode, std::int64_t timeNs, std::uint32_t position) {
    return mode == XAxis::Position ? static_cast<double>(position) : static_cast<double>(timeNs) / 1e9;
}

} // namespace la

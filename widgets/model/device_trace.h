// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"
#include "read_record.h"
#include "x_axis.h"

#include <cstdint>
#include <vector>

namespace la {

// An observed run's device reads, from a kernel capture (DeviceReadStarted/Completed events, docs/
// trace-import.md §2.4): each read, for the I/O sizes pane's device layer, and the device's queue
// depth at each start and completion, for the distance pane. In memory: a capture has a device read
// per 8 kB to some MB read, far fewer than a run's positions.
class DeviceTrace {
public:
    // A device request as a read of the file's blocks; readAhead: the kernel's, not asked for.
    struct Read : ReadRecord {
        bool readAhead = false;
    };
    struct Depth {
        std::int64_t timeNs = 0;
        std::uint32_t position = 0;
        std::uint16_t depth = 0;
    };

    void add(const Event& event);
    bool empty() const { return m_reads.empty(); }
    const std::vector<Read>& reads() const { return m_reads; }
    const std::vector<Depth>& depth() const { return m_depth; }

    // x of a read or depth step on the shared axis (seconds, or the consumer's position then).
    static double xOf(XAxis mode, std::int64_t timeNs, std::uint32_t position);

private:
    std::vector<Read> m_reads;
    std::vector<Depth> m_depth;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "extent_map.h"
#include "ftrace_line.h"
#include "kernel_capture_format.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace la {

// A device number as the block and filemap tracepoints hold it (the kernel's dev_t: major << 20 | minor).
inline std::uint32_t kernelDevice(std::uint32_t major, std::uint32_t minor) {
    return (major << 20) | (minor & 0xfffff);
}

// A file of interest: where its pages are known (the file system's device and the inode) for the
// page-cache events.
struct CapturedFile {
    std::string path;
    std::uint32_t device = 0; // kernelDevice() of the file's st_dev
    std::uint64_t inode = 0;
};

// Turns the kernel tracer's events into a kernel capture (docs/trace-import.md, "Kernel captures"):
// each device read request is mapped through the files' extents to the parts of files it read,
// timed from issue to completion, each page-cache addition of a file becomes a fill, and each read
// system call of the traced processes on a file of interest a call.
class KernelCapture {
public:
    // What a lookup of a process's descriptor found it open on, and when (ns of the trace clock,
    // CLOCK_MONOTONIC, from before to after the lookup): a file of interest (an index into the files)
    // or none of them.
    struct FdAnswer {
        std::optional<std::uint32_t> file;
        std::int64_t fromNs = 0, toNs = 0;
    };
    // The lookups that may tell a call's descriptor: the one made when its events were read and the
    // one before it. Either is empty where the descriptor could not be looked up (the process gone,
    // the descriptor closed). A lookup tells the call only if the descriptor was not closed between
    // the two (write() checks that against the traced closes): the number may be another file's now.
    struct FdFile {
        std::optional<FdAnswer> latest, earlier;
    };
    using FdResolver = std::function<FdFile(std::uint32_t pid, std::int64_t fd)>;

    // `extents` hold the files' extents on the devices the requests go to, by index into `files`.
    KernelCapture(std::vector<CapturedFile> files, ExtentMap extents, FdResolver resolveFd = {});

    void add(const FtraceEvent& event);

    // What the events said, for the capture's comment lines and the user.
    struct Counts {
        std::uint64_t deviceReads = 0;  // read requests on the files' devices
        std::uint64_t mappedReads = 0;  // of those, requests that read part of a file of interest
        std::uint64_t severalFiles = 0; // requests that read parts of more than one file
        std::uint64_t partial = 0;      // requests partly outside every file of interest
        std::uint64_t unfinished = 0;   // mapped requests whose completion was not seen
        std::uint64_t failed = 0;       // mapped requests that completed with an error (left out)
        std::uint64_t requeued = 0;     // requests issued again (the driver was busy): counted once
        std::uint64_t fills = 0;        // page-cache additions of the files
        std::uint64_t lostEvents = 0;   // the kernel's ring buffer overflowed by this many
        std::uint64_t calls = 0;        // read calls of the traced processes that ended
        std::uint64_t callsOfFiles = 0; // of those, calls on the files of interest
        std::uint64_t unresolved = 0;   // calls whose file could not be told (no lookup of its descriptor
                                        // before it was closed, or its entry not seen)
        std::uint64_t failedCalls = 0;  // calls on the files that returned an error (left out)
    };
    const Counts& counts() const { return m_counts; }

    // The capture: the header, `notes` as comment lines, the counts, then every record by time.
    // Called once, when the events have ended.
    void write(const std::vector<std::string>& notes, const std::function<void(std::string_view)>& sink);

private:
    struct Record {
        KernelCaptureRecord data;
        std::uint32_t file = 0;
        bool failed = false;
    };
    struct Pending {
        std::size_t first = 0; // index of its first record
        std::size_t count = 0;
        std::uint64_t bytes = 0; // the request's
    };

    void issue(const FtraceEvent& event);
    void complete(const FtraceEvent& event);
    void fill(const FtraceEvent& event);
    void callEnter(const FtraceEvent& event);
    void callExit(const FtraceEvent& event);
    void close(const FtraceEvent& event);
    // The lookup that tells a call on `fd` of process `pid` at `timeNs`, if any does.
    const FdAnswer* tellingLookup(std::uint32_t pid, std::int64_t fd, std::int64_t timeNs,
                                  const FdFile& lookups) const;
    bool closedBetween(std::uint32_t pid, std::int64_t fd, std::int64_t fromNs, std::int64_t toNs) const;
    void attributeCalls();

    std::vector<CapturedFile> m_files;
    ExtentMap m_extents;
    std::vector<Record> m_records;
    // Mapped requests in flight, by (device, sector): a completion names its request so.
    std::map<std::pair<std::uint32_t, std::uint64_t>, Pending> m_inFlight;
    struct PendingCall {
        std::int64_t timeNs = 0;
        std::int64_t fd = -1;
        std::uint64_t offset = 0;
    };
    // Calls entered and not yet exited, by task: a task is in one system call at a time.
    std::unordered_map<std::uint32_t, PendingCall> m_inCall;
    // Calls that read (or failed), told to a file at write(), when every close is known.
    struct EndedCall {
        PendingCall call;
        std::int64_t endNs = 0;
        std::int64_t result = 0;
        std::uint32_t pid = 0, process = 0;
        std::string comm;
        FdFile lookups;
    };
    std::vector<EndedCall> m_ended;
    // When each process's descriptors were closed (or replaced by dup2), by (process, descriptor);
    // close_range's ranges apart.
    std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<std::int64_t>> m_closes;
    struct RangeClose {
        std::uint32_t process = 0;
        std::int64_t first = 0, last = 0, timeNs = 0;
    };
    std::vector<RangeClose> m_rangeCloses;
    FdResolver m_resolveFd;
    Counts m_counts;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ftrace_line.h"
#include "io/extent_map.h"
#include "kernel_capture_format.h"

#include <cstdint>
#include <functional>
#include <map>
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
// page-cache and file-read events.
struct CapturedFile {
    std::string path;
    std::uint32_t device = 0; // kernelDevice() of the file's st_dev
    std::uint64_t inode = 0;
};

// Turns the kernel tracer's events into a kernel capture (docs/trace-import.md, "Kernel captures"):
// each device read request is mapped through the files' extents to the parts of files it read,
// timed from issue to completion, each page-cache addition of a file becomes a fill, and each read
// system call of the traced processes on a file of interest a call. A call's file is the one the
// kernel names (device and inode) in the page-cache lookup or direct read the call makes: no
// descriptor is looked up afterwards, so a process that has ended, or runs in another PID namespace,
// is told all the same.
//
// Records are written to the sink as they are complete (a request at its completion, a call at its
// end, a fill at once), so what is held in memory is what is in flight, not the capture.
class KernelCapture {
public:
    using Sink = std::function<void(std::string_view)>;

    // `extents` hold the files' extents on the devices the requests go to, by index into `files`.
    KernelCapture(std::vector<CapturedFile> files, ExtentMap extents, Sink sink);

    // The header and `notes` as comment lines; before the first event.
    void begin(const std::vector<std::string>& notes);
    void add(const FtraceEvent& event);
    // The requests whose completion was not seen, `notes`, then the counts; after the last event.
    void end(const std::vector<std::string>& notes);

    // What the events said, for the capture's comment lines and the user.
    struct Counts {
        std::uint64_t deviceReads = 0;   // read requests on the files' devices
        std::uint64_t mappedReads = 0;   // of those, requests that read part of a file of interest
        std::uint64_t severalFiles = 0;  // requests that read parts of more than one file
        std::uint64_t partial = 0;       // requests partly outside every file of interest
        std::uint64_t unfinished = 0;    // mapped requests whose completion was not seen
        std::uint64_t failed = 0;        // mapped requests that completed with an error (left out)
        std::uint64_t requeued = 0;      // requests issued again (the driver was busy): counted once
        std::uint64_t fills = 0;         // page-cache additions of the files
        std::uint64_t lostEvents = 0;    // the kernel's ring buffer overflowed by this many
        std::uint64_t calls = 0;         // read calls of the traced processes that ended
        std::uint64_t callsOfFiles = 0;  // of those, calls on the files of interest
        std::uint64_t failedCalls = 0;   // calls on the files that returned an error (left out)
        std::uint64_t unseenEntries = 0; // calls that read something whose entry the capture did not see
    };
    const Counts& counts() const { return m_counts; }

private:
    struct Piece {
        KernelCaptureRecord data;
        std::uint32_t file = 0;
    };
    struct Pending {
        std::vector<Piece> pieces;
        std::uint64_t bytes = 0; // the request's
    };
    struct InCall {
        std::int64_t timeNs = 0;
        std::int64_t fd = -1;
        std::uint64_t offset = 0; // a positional call's
        bool positional = false;
        bool fileSeen = false;    // the call's first file read came
        bool ofInterest = false;  // ... and named a file of interest
        bool exactOffset = false; // ... whose offset is exact (a direct read)
        std::uint32_t file = 0;
        std::uint64_t fileOffset = 0;
    };

    void issue(const FtraceEvent& event);
    void complete(const FtraceEvent& event);
    void fill(const FtraceEvent& event);
    void fileRead(const FtraceEvent& event);
    void callExit(const FtraceEvent& event);
    void seekExit(const FtraceEvent& event);
    // The file of interest at device:inode, or none (files.size()).
    std::uint32_t fileAt(std::uint32_t device, std::uint64_t inode) const;
    void write(const KernelCaptureRecord& record, std::uint32_t file);
    void writeNotes(const std::vector<std::string>& notes);
    void writeUnfinished();

    std::vector<CapturedFile> m_files;
    ExtentMap m_extents;
    Sink m_sink;
    // Mapped requests in flight, by (device, sector): a completion names its request so.
    std::map<std::pair<std::uint32_t, std::uint64_t>, Pending> m_inFlight;
    // Calls entered and not yet exited, and lseeks, by task: a task is in one system call at a time.
    std::unordered_map<std::uint32_t, InCall> m_inCall;
    std::unordered_map<std::uint32_t, std::int64_t> m_inSeek;
    // Where each descriptor of a process reads next, as far as its reads and lseeks tell: a read's
    // byte offset, where the page-cache lookup gives only its page. By (process, descriptor).
    std::map<std::pair<std::uint32_t, std::int64_t>, std::uint64_t> m_positions;
    Counts m_counts;
};

} // namespace la

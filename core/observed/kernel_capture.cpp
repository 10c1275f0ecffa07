// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_capture.h"

#include "checked_math.h"

#include <algorithm>

namespace la {

namespace {
constexpr std::uint64_t kSectorBytes = 512;
// The filemap tracepoints give offsets in bytes of 4 kB pages (they print index << 12).
constexpr std::uint64_t kPageBytes = 4096;
// Entries kept for what is in flight. A device holds a few thousand requests at most and a process
// has a call or an lseek under way per task; more means completions, exits or tasks were lost, and
// the entries are let go (requests written as unfinished) rather than kept for ever.
constexpr std::size_t kMaxEntries = std::size_t{1} << 18;

// A call's process: its descriptors are the process's, shared by its threads.
std::uint32_t processOf(const FtraceEvent& event) {
    return event.tgid != 0 ? event.tgid : event.pid;
}
} // namespace

KernelCapture::KernelCapture(std::vector<CapturedFile> files, ExtentMap extents, Sink sink)
    : m_files(std::move(files)), m_extents(std::move(extents)), m_sink(std::move(sink)) {}

void KernelCapture::writeNotes(const std::vector<std::string>& notes) {
    for (const std::string& note : notes) {
        std::string line = "# ";
        for (const char ch : note)
            line += ch == '\n' ? ' ' : ch;
        line += '\n';
        m_sink(line);
    }
}

void KernelCapture::begin(const std::vector<std::string>& notes) {
    m_sink(kKernelCaptureHeader);
    m_sink("\n");
    writeNotes(notes);
}

void KernelCapture::add(const FtraceEvent& event) {
    switch (event.kind) {
    case FtraceEventKind::Issue:
        issue(event);
        break;
    case FtraceEventKind::Complete:
        complete(event);
        break;
    case FtraceEventKind::PageCacheAdd:
        fill(event);
        break;
    case FtraceEventKind::CallEnter:
        if (m_inCall.size() >= kMaxEntries)
            m_inCall.clear();
        m_inCall[event.pid] = InCall{event.timeNs, event.fd, event.offset, event.positional};
        break;
    case FtraceEventKind::FileRead:
        fileRead(event);
        break;
    case FtraceEventKind::CallExit:
        callExit(event);
        break;
    case FtraceEventKind::SeekEnter:
        if (m_inSeek.size() >= kMaxEntries)
            m_inSeek.clear();
        m_inSeek[event.pid] = event.fd;
        break;
    case FtraceEventKind::SeekExit:
        seekExit(event);
        break;
    case FtraceEventKind::Lost:
        m_counts.lostEvents += event.lost;
        break;
    case FtraceEventKind::Marker:
    case FtraceEventKind::Other:
        break;
    }
}

void KernelCapture::write(const KernelCaptureRecord& record, std::uint32_t file) {
    m_sink(kernelCaptureLine(record, m_files[file].path));
}

void KernelCapture::issue(const FtraceEvent& event) {
    if (!event.isRead() || event.sectors == 0)
        return;
    const std::uint32_t device = kernelDevice(event.major, event.minor);
    std::uint64_t start = 0, bytes = 0;
    if (!checkedMul(event.sector, kSectorBytes, start) ||
        !checkedMul<std::uint64_t>(event.sectors, kSectorBytes, bytes))
        return;
    const auto key = std::make_pair(device, event.sector);
    if (const auto found = m_inFlight.find(key); found != m_inFlight.end() && found->second.bytes == bytes) {
        // The driver was busy and the block layer issued the request again: the first issue is when
        // its task asked for it, and the time until completion is what the read took.
        ++m_counts.requeued;
        return;
    }
    ++m_counts.deviceReads;
    const std::vector<MappedPiece> pieces = m_extents.map(device, start, bytes);
    if (pieces.empty())
        return;
    ++m_counts.mappedReads;
    std::uint64_t covered = 0;
    for (const MappedPiece& piece : pieces)
        covered += piece.bytes; // each within the request: no overflow
    if (std::any_of(pieces.begin(), pieces.end(),
                    [&](const MappedPiece& piece) { return piece.file != pieces.front().file; }))
        ++m_counts.severalFiles;
    if (covered < bytes)
        ++m_counts.partial;
    if (m_inFlight.size() >= kMaxEntries)
        writeUnfinished();
    // Another request at the same place before the earlier one's completion: that one's completion
    // was lost, it stays unfinished.
    if (const auto earlier = m_inFlight.find(key); earlier != m_inFlight.end()) {
        ++m_counts.unfinished;
        for (const Piece& piece : earlier->second.pieces)
            write(piece.data, piece.file);
    }
    Pending& pending = m_inFlight[key];
    pending = Pending{{}, bytes};
    for (const MappedPiece& piece : pieces) {
        Piece part;
        part.file = piece.file;
        part.data.timeNs = event.timeNs;
        part.data.pid = event.pid;
        part.data.comm = std::string(event.comm);
        part.data.flags = std::string(event.rwbs);
        part.data.offset = piece.offset;
        part.data.bytes = piece.bytes;
        pending.pieces.push_back(std::move(part));
    }
}

void KernelCapture::complete(const FtraceEvent& event) {
    if (!event.isRead())
        return;
    const auto found = m_inFlight.find({kernelDevice(event.major, event.minor), event.sector});
    if (found == m_inFlight.end())
        return;
    Pending pending = std::move(found->second);
    m_inFlight.erase(found);
    if (event.error != 0) {
        ++m_counts.failed;
        return;
    }
    for (Piece& piece : pending.pieces) {
        std::int64_t duration = 0;
        if (!checkedSub(event.timeNs, piece.data.timeNs, duration))
            duration = 0;
        piece.data.durationNs = std::max<std::int64_t>(duration, 0);
        write(piece.data, piece.file);
    }
}

void KernelCapture::writeUnfinished() {
    m_counts.unfinished += m_inFlight.size();
    for (const auto& [key, pending] : m_inFlight)
        for (const Piece& piece : pending.pieces)
            write(piece.data, piece.file);
    m_inFlight.clear();
}

std::uint32_t KernelCapture::fileAt(std::uint32_t device, std::uint64_t inode) const {
    for (std::uint32_t i = 0; i < m_files.size(); ++i)
        if (m_files[i].device == device && m_files[i].inode == inode)
            return i;
    return static_cast<std::uint32_t>(m_files.size());
}

void KernelCapture::fill(const FtraceEvent& event) {
    const std::uint32_t file = fileAt(kernelDevice(event.major, event.minor), event.inode);
    if (file == m_files.size())
        return;
    ++m_counts.fills;
    KernelCaptureRecord record;
    record.kind = KernelRecordKind::Fill;
    record.timeNs = event.timeNs;
    record.pid = event.pid;
    record.comm = std::string(event.comm);
    record.offset = event.offset;
    record.bytes = kPageBytes << event.order; // order is at most 20 (the parser's bound)
    write(record, file);
}

// The first file read inside a call is the call's: a buffered read looks its pages up from its
// offset on (later lookups in the same call continue it), a direct read begins at its offset.
void KernelCapture::fileRead(const FtraceEvent& event) {
    const auto found = m_inCall.find(event.pid);
    if (found == m_inCall.end() || found->second.fileSeen)
        return;
    InCall& call = found->second;
    call.fileSeen = true;
    call.file = fileAt(kernelDevice(event.major, event.minor), event.inode);
    call.ofInterest = call.file < m_files.size();
    call.fileOffset = event.offset;
    call.exactOffset = event.direct;
}

void KernelCapture::callExit(const FtraceEvent& event) {
    const auto found = m_inCall.find(event.pid);
    ++m_counts.calls;
    if (found == m_inCall.end()) {
        // Entered before the capture began, or its entry was lost: which file is not known.
        if (event.result != 0)
            ++m_counts.unseenEntries;
        return;
    }
    const InCall call = found->second;
    m_inCall.erase(found);
    if (event.result == 0 || !call.ofInterest)
        return; // end of file, or another file (a pipe, a library, another file of the disk)
    ++m_counts.callsOfFiles;
    if (event.result < 0) {
        ++m_counts.failedCalls;
        return;
    }
    const auto bytes = static_cast<std::uint64_t>(event.result);
    std::uint64_t offset = call.offset;
    if (!call.positional) {
        // read and readv read at the descriptor's position. The kernel names its page; where the
        // reads and lseeks seen on the descriptor put it inside that page, that is the byte.
        offset = call.fileOffset;
        const auto key = std::make_pair(processOf(event), call.fd);
        if (const auto known = m_positions.find(key); !call.exactOffset && known != m_positions.end() &&
                                                      known->second / kPageBytes == offset / kPageBytes)
            offset = known->second;
        std::uint64_t next = 0;
        if (m_positions.size() >= kMaxEntries)
            m_positions.clear();
        if (checkedAdd(offset, bytes, next))
            m_positions[key] = next;
    }
    KernelCaptureRecord record;
    record.kind = KernelRecordKind::Call;
    record.timeNs = call.timeNs;
    std::int64_t duration = 0;
    record.durationNs =
        checkedSub(event.timeNs, call.timeNs, duration) ? std::max<std::int64_t>(duration, 0) : -1;
    record.pid = event.pid;
    record.comm = std::string(event.comm);
    record.offset = offset;
    record.bytes = bytes;
    write(record, call.file);
}

void KernelCapture::seekExit(const FtraceEvent& event) {
    const auto found = m_inSeek.find(event.pid);
    if (found == m_inSeek.end())
        return;
    const std::int64_t fd = found->second;
    m_inSeek.erase(found);
    if (event.result < 0)
        return;
    if (m_positions.size() >= kMaxEntries)
        m_positions.clear();
    m_positions[{processOf(event), fd}] = static_cast<std::uint64_t>(event.result);
}

void KernelCapture::end(const std::vector<std::string>& notes) {
    writeUnfinished();
    writeNotes(notes);
    const Counts& c = m_counts;
    m_sink("# device read requests " + std::to_string(c.deviceReads) + ", of the files " +
           std::to_string(c.mappedReads) + " (reading several files " + std::to_string(c.severalFiles) +
           ", partly outside the files " + std::to_string(c.partial) + ", completion not seen " +
           std::to_string(c.unfinished) + ", failed " + std::to_string(c.failed) + ", issued again " +
           std::to_string(c.requeued) + "); page-cache fills " + std::to_string(c.fills) + "; lost events " +
           std::to_string(c.lostEvents) + "\n");
    m_sink("# read calls " + std::to_string(c.calls) + ", of the files " + std::to_string(c.callsOfFiles) +
           " (failed " + std::to_string(c.failedCalls) + "); calls whose entry was not seen " +
           std::to_string(c.unseenEntries) + "\n");
}

} // namespace la

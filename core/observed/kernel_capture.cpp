// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_capture.h"

#include "checked_math.h"

#include <algorithm>

namespace la {

namespace {
constexpr std::uint64_t kSectorBytes = 512;
// The filemap tracepoint gives offsets in bytes of 4 kB pages (it prints index << 12).
constexpr std::uint64_t kPageBytes = 4096;

// A call's process: its descriptors are the process's, shared by its threads, and looked up through
// the process, which outlives a worker thread that made a call and ended before the lookup.
std::uint32_t processOf(const FtraceEvent& event) {
    return event.tgid != 0 ? event.tgid : event.pid;
}
} // namespace

KernelCapture::KernelCapture(std::vector<CapturedFile> files, ExtentMap extents, FdResolver resolveFd)
    : m_files(std::move(files)), m_extents(std::move(extents)), m_resolveFd(std::move(resolveFd)) {}

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
        callEnter(event);
        break;
    case FtraceEventKind::CallExit:
        callExit(event);
        break;
    case FtraceEventKind::Close:
        close(event);
        break;
    case FtraceEventKind::Lost:
        m_counts.lostEvents += event.lost;
        break;
    case FtraceEventKind::Other:
        break;
    }
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
    // Another request at the same place before the earlier one's completion: that one's completion
    // was lost, it stays unfinished.
    m_inFlight[key] = Pending{m_records.size(), pieces.size(), bytes};
    for (const MappedPiece& piece : pieces) {
        Record record;
        record.file = piece.file;
        record.data.timeNs = event.timeNs;
        record.data.pid = event.pid;
        record.data.comm = std::string(event.comm);
        record.data.flags = std::string(event.rwbs);
        record.data.offset = piece.offset;
        record.data.bytes = piece.bytes;
        m_records.push_back(std::move(record));
    }
}

void KernelCapture::complete(const FtraceEvent& event) {
    if (!event.isRead())
        return;
    const auto found = m_inFlight.find({kernelDevice(event.major, event.minor), event.sector});
    if (found == m_inFlight.end())
        return;
    const Pending pending = found->second;
    m_inFlight.erase(found);
    if (event.error != 0)
        ++m_counts.failed;
    for (std::size_t i = pending.first; i < pending.first + pending.count; ++i) {
        Record& record = m_records[i];
        std::int64_t duration = 0;
        if (!checkedSub(event.timeNs, record.data.timeNs, duration))
            duration = 0;
        record.data.durationNs = std::max<std::int64_t>(duration, 0);
        record.failed = event.error != 0;
    }
}

void KernelCapture::fill(const FtraceEvent& event) {
    const std::uint32_t device = kernelDevice(event.major, event.minor);
    for (std::uint32_t i = 0; i < m_files.size(); ++i) {
        if (m_files[i].device != device || m_files[i].inode != event.inode)
            continue;
        ++m_counts.fills;
        Record record;
        record.file = i;
        record.data.kind = KernelRecordKind::Fill;
        record.data.timeNs = event.timeNs;
        record.data.pid = event.pid;
        record.data.comm = std::string(event.comm);
        record.data.offset = event.offset;
        record.data.bytes = kPageBytes << event.order; // order is at most 20 (the parser's bound)
        m_records.push_back(std::move(record));
        return;
    }
}

void KernelCapture::callEnter(const FtraceEvent& event) {
    m_inCall[event.pid] = PendingCall{event.timeNs, event.fd, event.offset};
}

void KernelCapture::callExit(const FtraceEvent& event) {
    const auto found = m_inCall.find(event.pid);
    if (found == m_inCall.end()) {
        // Entered before the capture began, or its entry was lost: which descriptor is not known.
        ++m_counts.calls;
        if (event.result != 0)
            ++m_counts.unresolved;
        return;
    }
    const PendingCall call = found->second;
    m_inCall.erase(found);
    ++m_counts.calls;
    if (event.result == 0)
        return; // end of file: nothing read
    EndedCall ended;
    ended.call = call;
    ended.endNs = event.timeNs;
    ended.result = event.result;
    ended.pid = event.pid;
    ended.process = processOf(event);
    ended.comm = std::string(event.comm);
    if (m_resolveFd)
        ended.lookups = m_resolveFd(ended.process, call.fd);
    m_ended.push_back(std::move(ended));
}

void KernelCapture::close(const FtraceEvent& event) {
    const std::uint32_t process = processOf(event);
    if (event.fd == event.lastFd)
        m_closes[{process, event.fd}].push_back(event.timeNs);
    else
        m_rangeCloses.push_back({process, event.fd, event.lastFd, event.timeNs});
}

bool KernelCapture::closedBetween(std::uint32_t pid, std::int64_t fd, std::int64_t fromNs,
                                  std::int64_t toNs) const {
    // The trace's times are to the microsecond: a close within one of either end may lie between.
    constexpr std::int64_t kTick = 1000;
    const std::int64_t from = fromNs - kTick, to = toNs + kTick;
    if (const auto found = m_closes.find({pid, fd}); found != m_closes.end()) {
        const auto at = std::lower_bound(found->second.begin(), found->second.end(), from);
        if (at != found->second.end() && *at <= to)
            return true;
    }
    return std::any_of(m_rangeCloses.begin(), m_rangeCloses.end(), [&](const RangeClose& r) {
        return r.process == pid && r.first <= fd && fd <= r.last && from <= r.timeNs && r.timeNs <= to;
    });
}

const KernelCapture::FdAnswer* KernelCapture::tellingLookup(std::uint32_t pid, std::int64_t fd,
                                                            std::int64_t timeNs,
                                                            const FdFile& lookups) const {
    for (const std::optional<FdAnswer>* lookup : {&lookups.latest, &lookups.earlier})
        if (*lookup &&
            !closedBetween(pid, fd, std::min(timeNs, (*lookup)->fromNs), std::max(timeNs, (*lookup)->toNs)))
            return &**lookup;
    return nullptr;
}

void KernelCapture::attributeCalls() {
    for (auto& [descriptor, times] : m_closes)
        std::sort(times.begin(), times.end());
    for (EndedCall& ended : m_ended) {
        const FdAnswer* answer =
            tellingLookup(ended.process, ended.call.fd, ended.call.timeNs, ended.lookups);
        if (answer == nullptr) {
            ++m_counts.unresolved;
            continue;
        }
        if (!answer->file || *answer->file >= m_files.size())
            continue;
        ++m_counts.callsOfFiles;
        if (ended.result < 0) {
            ++m_counts.failedCalls;
            continue;
        }
        Record record;
        record.file = *answer->file;
        record.data.kind = KernelRecordKind::Call;
        record.data.timeNs = ended.call.timeNs;
        std::int64_t duration = 0;
        record.data.durationNs =
            checkedSub(ended.endNs, ended.call.timeNs, duration) ? std::max<std::int64_t>(duration, 0) : -1;
        record.data.pid = ended.pid;
        record.data.comm = std::move(ended.comm);
        record.data.offset = ended.call.offset;
        record.data.bytes = static_cast<std::uint64_t>(ended.result);
        m_records.push_back(std::move(record));
    }
    m_ended.clear();
}

void KernelCapture::write(const std::vector<std::string>& notes,
                          const std::function<void(std::string_view)>& sink) {
    m_counts.unfinished = m_inFlight.size();
    attributeCalls();
    sink(kKernelCaptureHeader);
    sink("\n");
    for (const std::string& note : notes) {
        std::string line = "# ";
        for (const char ch : note)
            line += ch == '\n' ? ' ' : ch;
        line += '\n';
        sink(line);
    }
    const Counts& c = m_counts;
    sink("# device read requests " + std::to_string(c.deviceReads) + ", of the files " +
         std::to_string(c.mappedReads) + " (reading several files " + std::to_string(c.severalFiles) +
         ", partly outside the files " + std::to_string(c.partial) + ", completion not seen " +
         std::to_string(c.unfinished) + ", failed " + std::to_string(c.failed) + ", issued again " +
         std::to_string(c.requeued) + "); page-cache fills " + std::to_string(c.fills) + "; lost events " +
         std::to_string(c.lostEvents) + "\n");
    sink("# read calls " + std::to_string(c.calls) + ", of the files " + std::to_string(c.callsOfFiles) +
         " (failed " + std::to_string(c.failedCalls) + "); calls whose file could not be told " +
         std::to_string(c.unresolved) + "\n");
    std::stable_sort(m_records.begin(), m_records.end(),
                     [](const Record& a, const Record& b) { return a.data.timeNs < b.data.timeNs; });
    for (const Record& record : m_records)
        if (!record.failed)
            sink(kernelCaptureLine(record.data, m_files[record.file].path));
}

} // namespace la

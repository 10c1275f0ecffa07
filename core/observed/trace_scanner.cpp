// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_scanner.h"

#include "checked_math.h"
#include "message_text.h"

namespace la {

namespace {
constexpr std::uint64_t kProgressEveryLines = 1 << 16;
constexpr std::size_t kBadLinesShown = 3;
// Calls waiting for their "resumed" line. Real traces have one per blocked process at most; beyond
// this many a trace's unfinished calls would make memory grow with the trace, so later ones are
// dropped (and counted).
constexpr std::size_t kMaxPendingCalls = 4096;

// A read strace showed as "<unfinished ...>": the part its "resumed" line lacks.
struct PendingRead {
    bool hasTime = false;
    std::int64_t timeNs = 0;
    std::int64_t fd = -1;
    std::string path;
};

// Reads strace showed as "<unfinished ...>", by process, until their "resumed" lines.
class PendingReads {
public:
    // Keeps the started read until its process's "resumed" line.
    void start(const TraceLine& line, ScanStats& stats) {
        if (m_reads.size() >= kMaxPendingCalls && !m_reads.contains(line.pid)) {
            ++stats.unfinishedCalls;
            return;
        }
        auto [it, inserted] = m_reads.try_emplace(line.pid);
        if (!inserted)
            ++stats.unfinishedCalls; // the process started another call: this one never resumed
        PendingRead& p = it->second;
        p.hasTime = line.hasTime;
        p.timeNs = line.timeNs;
        p.fd = line.fd;
        p.path.assign(line.path);
    }

    // Hands the read to `visitor` whole: the resumed line with its start's time and file.
    void resume(TraceLine& line, TraceVisitor& visitor, ScanStats& stats) {
        const auto found = m_reads.find(line.pid);
        if (found == m_reads.end()) {
            ++stats.unmatchedResumes; // strace attached while the call was in progress
            return;
        }
        const PendingRead p = std::move(found->second);
        m_reads.erase(found);
        line.hasTime = p.hasTime;
        line.timeNs = p.timeNs;
        line.fd = p.fd;
        line.path = p.path;
        visitor.read(line);
    }

    std::size_t size() const { return m_reads.size(); }

private:
    std::unordered_map<std::uint32_t, PendingRead> m_reads;
};

void reportProgress(const LineReader& reader, const ScanProgress& progress) {
    if (progress.progress)
        progress.progress(progress.doneBefore + reader.bytesConsumed(), progress.total);
}

// Counts a line that is not one the format allows, keeping the first few for the message.
void noteBadLine(const LineReader& reader, std::string_view text, ScanStats& stats) {
    ++stats.badLines;
    if (stats.firstBad.size() < kBadLinesShown)
        stats.firstBad.push_back("line " + std::to_string(reader.lineNumber()) +
                                 (reader.overlong() || reader.unterminated() ? " (cut short)" : "") + ": '" +
                                 excerpt(text, 80) + "'");
}

} // namespace

bool scanTrace(LineReader& reader, TraceFormat format, TraceVisitor& visitor, ScanStats& stats,
               const ScanProgress& progress) {
    reader.rewind();
    stats = ScanStats{};
    PendingReads pending;
    std::string_view text;
    TraceLine line;
    while (reader.next(text)) {
        ++stats.lines;
        if (stats.lines % kProgressEveryLines == 0) {
            if (progress.cancel && progress.cancel->load(std::memory_order_relaxed))
                return false;
            reportProgress(reader, progress);
        }
        if (text.find_first_not_of(" \t") == std::string_view::npos)
            continue;
        const LineKind kind = reader.overlong() ? LineKind::Bad : parseTraceLine(format, text, line);
        switch (kind) {
        case LineKind::Read:
            visitor.read(line);
            break;
        case LineKind::Started:
            pending.start(line, stats);
            break;
        case LineKind::Resumed:
            pending.resume(line, visitor, stats);
            break;
        case LineKind::Completed:
            visitor.completed(line);
            break;
        case LineKind::Waited:
            visitor.waited(line);
            break;
        case LineKind::UringEnter:
            ++stats.uringEnters;
            break;
        case LineKind::PageCacheFill:
            visitor.pageCacheFill(line);
            break;
        case LineKind::DeviceRead:
            visitor.deviceRead(line);
            break;
        case LineKind::Other:
            if (!checkedAdd(stats.lostEvents, line.lostEvents, stats.lostEvents))
                stats.lostEvents = UINT64_MAX;
            break;
        case LineKind::Bad:
            noteBadLine(reader, text, stats);
            break;
        }
    }
    stats.unfinishedCalls += pending.size();
    reportProgress(reader, progress);
    return true;
}

} // namespace la

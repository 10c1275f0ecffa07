// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_importer.h"

#include "block_size.h"
#include "checked_math.h"
#include "input_error.h"
#include "io/segment_path.h"
#include "kernel_capture_format.h"
#include "message_text.h"
#include "read_collector.h"
#include "strace_parser.h"
#include "text_cursor.h"
#include "trace_file_key.h"
#include "trace_scanner.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace la {

namespace {

constexpr std::size_t kDetectLines = 200;
constexpr std::uint64_t kDetectBytes = 64 * 1024;

// The files listed for choosing (the GUI's picker, the CLI's note); the rest are only counted.
constexpr std::size_t kListedFiles = 64;
// Files counted in the first pass (about 100 bytes each): the bound on its memory. Reads of files
// first seen after this many others are counted together; --trace-relation still finds them.
constexpr std::size_t kMaxCountedFiles = std::size_t{1} << 19;
// Malformed lines are skipped while they are at most this share of the trace (1 in 10).
constexpr std::uint64_t kBadShareDivisor = 10;

// Whether `key` (a relation's path) is `wanted`, exactly or by its last components.
bool relationMatches(std::string_view key, std::string_view wanted, bool& exact) {
    exact = key == wanted;
    return exact || (key.size() > wanted.size() && key.ends_with(wanted) &&
                     key[key.size() - wanted.size() - 1] == '/');
}

// Pass 1: reads per file. Only counters are kept per file (no names: a trace of a million files
// read once each must not cost a name each); the names of the most read come from pass 2.
class Inventory final : public TraceVisitor {
public:
    struct Count {
        std::uint64_t hash = 0;
        std::uint64_t reads = 0;
        std::uint64_t bytes = 0;
        std::uint64_t order = 0;
    };
    // A file whose path matches --trace-relation.
    struct Match {
        std::string key;
        std::uint64_t hash = 0;
        bool escaped = false; // matched once strace's escapes in its name were undone
    };

    // `devices` counts a kernel capture's device reads apart from its calls.
    explicit Inventory(std::string_view wanted, Inventory* devices = nullptr)
        : m_wanted(wanted), m_devices(devices) {}

    void deviceRead(const TraceLine& line) override {
        if (m_devices)
            m_devices->read(line);
    }

    void read(const TraceLine& line) override {
        ++m_reads;
        const std::string_view key = m_key.of(line);
        const std::uint64_t hash = hashOf(key);
        auto found = m_counts.find(hash);
        if (found == m_counts.end()) {
            if (!m_wanted.empty() && !line.path.empty())
                match(key, hash);
            if (m_counts.size() >= kMaxCountedFiles) {
                m_uncountedReads += line.failed ? 0 : 1;
                return;
            }
            found = m_counts.emplace(hash, Count{hash, 0, 0, m_counts.size() + 1}).first;
        }
        Count& count = found->second;
        if (line.failed)
            return;
        ++count.reads;
        count.bytes += coveredBytes(line); // each below 2^31 (kMaxReadBytes): 2^33 reads before a wrap
        if (count.reads > m_leaderReads) {
            m_leaderReads = count.reads;
            if (m_leaderHash != hash)
                m_leaderName = displayName(line, key);
            m_leaderHash = hash;
        }
    }

    std::uint64_t reads() const { return m_reads; }
    std::size_t files() const { return m_counts.size(); }
    // Successful reads of files past kMaxCountedFiles.
    std::uint64_t uncountedReads() const { return m_uncountedReads; }
    const std::string& mostRead() const { return m_leaderName; }
    const std::vector<Match>& matches() const { return m_matches; }
    bool exactMatch() const { return m_exact; }
    std::uint64_t readsOf(std::uint64_t hash) const {
        const auto found = m_counts.find(hash);
        return found == m_counts.end() ? 0 : found->second.reads;
    }
    // The `n` most read files, most reads first, then in order of first appearance.
    std::vector<Count> top(std::size_t n) const {
        std::vector<Count> list;
        list.reserve(m_counts.size());
        for (const auto& entry : m_counts)
            list.push_back(entry.second);
        const auto more = [](const Count& a, const Count& b) {
            return a.reads != b.reads ? a.reads > b.reads : a.order < b.order;
        };
        n = std::min(n, list.size());
        std::partial_sort(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(n), list.end(), more);
        list.resize(n);
        return list;
    }

private:
    // Keeps an exact match, else up to two matches by the path's end (two make the choice ambiguous).
    void match(std::string_view key, std::uint64_t hash) {
        bool exact = false;
        bool escaped = false;
        if (!relationMatches(key, m_wanted, exact)) {
            if (key.find('\\') == std::string_view::npos)
                return;
            if (!relationMatches(unescapeStracePath(key), m_wanted, exact))
                return;
            escaped = true;
        }
        const bool known = std::any_of(m_matches.begin(), m_matches.end(),
                                       [&](const Match& m) { return m.hash == hash && m.key == key; });
        if (known || m_exact || (!exact && m_matches.size() >= 2))
            return;
        if (exact) {
            m_exact = true;
            m_matches.clear();
        }
        m_matches.push_back({std::string(key), hash, escaped});
    }

    std::string_view m_wanted; // the relation of --trace-relation PATH, else empty
    Inventory* m_devices = nullptr;
    FileKey m_key;
    std::unordered_map<std::uint64_t, Count> m_counts; // by the hash of the file's key
    std::uint64_t m_reads = 0, m_uncountedReads = 0;
    std::uint64_t m_leaderReads = 0, m_leaderHash = 0;
    std::string m_leaderName;
    std::vector<Match> m_matches;
    bool m_exact = false;
};

// The first lines, for detecting the format; rejects empty and binary files. `trace` names the file
// in messages ("trace '…'"), as every check below takes it.
std::vector<std::string> firstLines(LineReader& reader, const std::string& trace) {
    if (reader.size() == 0)
        throw InputError(trace + " is empty");
    std::vector<std::string> lines;
    std::string_view line;
    while (lines.size() < kDetectLines && reader.bytesConsumed() < kDetectBytes && reader.next(line)) {
        if (std::memchr(line.data(), '\0', line.size()))
            throw InputError(trace +
                             " is a binary file, not a strace, perf trace or Lookahead trace CSV text");
        if (line.find_first_not_of(" \t") != std::string_view::npos)
            lines.emplace_back(line);
    }
    if (lines.empty())
        throw InputError(trace + " is empty");
    return lines;
}

TraceFormat formatOf(TraceFormat asked, const std::string& trace, const std::vector<std::string>& lines) {
    if (asked != TraceFormat::Auto)
        return asked;
    const std::optional<TraceFormat> detected = detectTraceFormat(lines);
    if (!detected)
        throw InputError(
            trace +
            " is not strace, perf trace, Lookahead trace CSV or kernel capture output (its first line is '" +
            excerpt(lines.front(), 80) + "'); see docs/trace-import.md");
    return *detected;
}

// A format whose first line says its version: one this Lookahead does not know is refused.
void requireKnownVersion(TraceFormat format, const std::string& trace, const std::string& firstLine) {
    if (format != TraceFormat::Kernel)
        return;
    if (const std::string problem = kernelCaptureVersionProblem(firstLine); !problem.empty())
        throw InputError(trace + ": " + problem);
}

std::string badLinesShown(const ScanStats& stats) {
    std::string shown;
    for (const std::string& bad : stats.firstBad)
        shown += (shown.empty() ? "" : "; ") + bad;
    return shown;
}

void requireReads(const std::string& trace, TraceFormat format, const ScanStats& stats,
                  const Inventory& inventory) {
    if (stats.badLines > 0 && (stats.badLines > stats.lines / kBadShareDivisor || inventory.reads() == 0))
        throw InputError(trace + ": " + std::to_string(stats.badLines) + " of " +
                         std::to_string(stats.lines) + " lines are not " + traceFormatName(format) +
                         " output or are cut short, more than 1 in " + std::to_string(kBadShareDivisor) +
                         " (" + badLinesShown(stats) +
                         "); check the format (--trace-format) and that the file is complete");
    if (inventory.reads() > 0)
        return;
    if (stats.uringEnters > 0)
        throw InputError(trace + " shows " + std::to_string(stats.uringEnters) +
                         " io_uring_enter calls and no preads: reads submitted through io_uring are not "
                         "system calls a trace can see; trace with io_method=worker or io_method=sync");
    throw InputError(trace + " has no reads (pread64, preadv or preadv2)");
}

// The selection; `name` is set when known before pass 2, `note` when the user should hear how.
Selection choose(const std::string& wanted, const std::string& trace, const Inventory& inventory,
                 const std::vector<Inventory::Count>& top, std::string& name, std::string& note) {
    if (wanted.empty())
        return Selection{false, -1, top.front().hash};
    if (wanted.starts_with("fd:")) {
        std::uint64_t fd = 0;
        Selection selection{true, -1, 0};
        TextCursor c(std::string_view(wanted).substr(3));
        if (!c.readUnsigned(fd) || !c.atEnd() || !checkedCast(fd, selection.fd))
            throw InputError("--trace-relation " + quotedName(wanted) +
                             ": expected fd:N with a descriptor number");
        name = wanted;
        return selection;
    }
    const std::vector<Inventory::Match>& matches = inventory.matches();
    if (matches.size() > 1)
        throw InputError("--trace-relation " + quotedName(wanted) + " matches both " +
                         quotedName(matches[0].key) + " and " + quotedName(matches[1].key) +
                         "; give more of the path");
    if (matches.empty())
        throw InputError("--trace-relation " + quotedName(wanted) + ": no reads of that file in " + trace +
                         " (the most read is " + quotedName(inventory.mostRead()) + ")");
    if (matches.front().escaped)
        note = "the trace shows " + quotedName(wanted) + " as " + quotedName(matches.front().key) +
               " (strace escapes such names)";
    name = matches.front().key;
    return Selection{false, -1, matches.front().hash};
}

// What the import noticed that the user should know, besides the counters the trace keeps.
void addNotes(ObservedTrace& trace, const ScanStats& stats, const ReadCollector& collector) {
    // "N <what>", when the import met any.
    const auto noteCount = [&trace](std::uint64_t count, const char* what) {
        if (count > 0)
            trace.notes.push_back(std::to_string(count) + what);
    };
    if (stats.lostEvents > 0)
        trace.notes.push_back("warning: the capture lost " + std::to_string(stats.lostEvents) +
                              " of the kernel's events (its ring buffer filled faster than it was read): "
                              "reads are missing, so every figure of this trace falls short; capture again "
                              "with --no-calls, or a shorter command");
    if (stats.badLines > 0)
        trace.notes.push_back("skipped " + std::to_string(stats.badLines) + " malformed line(s) of " +
                              std::to_string(stats.lines) + ": " + badLinesShown(stats));
    noteCount(collector.shortReads(),
              " read(s) returned less than they asked for (end of file or short reads): "
              "only the blocks they returned are counted");
    noteCount(collector.interruptedReads(),
              " read(s) were interrupted by another task and their end is not in the trace: "
              "their durations and results are unknown");
    noteCount(stats.unfinishedCalls,
              " call(s) began (<unfinished ...>) but never resumed in the trace and are left out");
    if (collector.fills() > 0)
        trace.notes.push_back("the page cache took in " + std::to_string(collector.fillBytes() / 1024) +
                              " kB of the relation in " + std::to_string(collector.fills()) +
                              " fill(s): buffered reads, so the device reads are what the kernel read for "
                              "them, its read-ahead included");
    noteCount(collector.readAheadReads(),
              " device read(s) of the relation were the kernel's read-ahead (RA), not asked for "
              "by the reader");
    if (trace.otherFiles > 0)
        trace.notes.push_back("the trace reads " + std::to_string(trace.otherFiles) +
                              " more file(s) than are listed");
}

bool earlier(const ObservedRead& a, const ObservedRead& b) {
    return a.startNs < b.startNs;
}

// Reads by start time, waits pointing at the same reads after the sort.
void sortByStart(ObservedTrace& trace) {
    auto& reads = trace.reads;
    // strace writes a call when it ends, so a trace is nearly always in start order already.
    if (std::is_sorted(reads.begin(), reads.end(), earlier))
        return;
    if (trace.waits.empty()) {
        std::stable_sort(reads.begin(), reads.end(), earlier);
        return;
    }
    std::vector<std::uint32_t> byStart(reads.size());
    std::iota(byStart.begin(), byStart.end(), 0U);
    std::stable_sort(byStart.begin(), byStart.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return earlier(reads[a], reads[b]); });
    std::vector<ObservedRead> sorted(reads.size());
    std::vector<std::uint32_t> newIndex(reads.size());
    for (std::size_t i = 0; i < byStart.size(); ++i) {
        sorted[i] = reads[byStart[i]];
        newIndex[byStart[i]] = static_cast<std::uint32_t>(i);
    }
    reads = std::move(sorted);
    for (ObservedWait& wait : trace.waits)
        wait.read = newIndex[wait.read];
}

// Which process ran the scan, and its reads as its waits: a read a process makes itself blocks it
// for as long as the read took, while an I/O worker's read costs the backend nothing it can see.
void attributeWaits(const TraceImportRequest& request, ObservedTrace& trace) {
    if (trace.format == TraceFormat::LookaheadCsv)
        return; // our own CSV recorded the consumer's waits
    if (request.backendPid) {
        trace.backend = *request.backendPid;
        trace.backendBasis = "--trace-backend";
    } else if (trace.processes.size() == 1) {
        trace.backend = trace.processes.front();
        trace.backendBasis = "the only process that read the relation";
    } else {
        return;
    }
    const auto found = std::find(trace.processes.begin(), trace.processes.end(), *trace.backend);
    if (found == trace.processes.end()) {
        trace.notes.push_back(
            "process " + std::to_string(*trace.backend) +
            " (--trace-backend) read nothing of the relation: its I/O workers did every read, "
            "and it waited for none it made itself");
        return;
    }
    const auto index = static_cast<std::uint32_t>(found - trace.processes.begin());
    // The kernel's read-ahead is issued in the reader's task, which goes on without waiting for it.
    for (std::size_t i = 0; i < trace.reads.size(); ++i)
        if (trace.reads[i].process == index && !trace.reads[i].readAhead)
            trace.waits.push_back({trace.reads[i].startNs, static_cast<std::uint32_t>(i)});
}

// Each call of a kernel capture is known to have needed the device when the device was reading some
// of its blocks while it ran (a read it issued, or the kernel's read-ahead it waited for), or the page
// cache took some in; else the page cache served it whole.
void classifyCalls(ObservedTrace& trace, std::vector<ReadCollector::DeviceWork>& work) {
    using Work = ReadCollector::DeviceWork;
    std::stable_sort(work.begin(), work.end(),
                     [](const Work& a, const Work& b) { return a.timeNs < b.timeNs; });
    std::int64_t longest = 0;
    for (const Work& w : work)
        longest = std::max(longest, w.durationNs);
    std::uint64_t device = 0;
    for (ObservedRead& read : trace.reads) {
        // Times and durations are within the trace's bounds (trace_line.h): no overflow.
        const std::int64_t end = read.startNs + read.durationNs;
        const auto from = std::lower_bound(work.begin(), work.end(), read.startNs - longest,
                                           [](const Work& w, std::int64_t t) { return w.timeNs < t; });
        const std::uint64_t readEnd = std::uint64_t{read.block} + read.nblocks;
        bool needed = false;
        for (auto w = from; w != work.end() && w->timeNs <= end && !needed; ++w)
            needed = w->timeNs + w->durationNs >= read.startNs && w->block < readEnd && read.block < w->end;
        read.source = needed ? ReadSource::Device : ReadSource::PageCache;
        device += needed ? 1 : 0;
    }
    trace.sourcesExact = true;
    trace.notes.push_back(
        std::to_string(device) + " of the " + std::to_string(trace.reads.size()) +
        " read call(s) needed the device (it was reading, or the page cache took in, some of "
        "their blocks while they ran); the page cache served the others");
}

// Times from the first read's start.
void rebaseTimes(ObservedTrace& trace) {
    const std::int64_t origin = trace.reads.empty() ? 0 : trace.reads.front().startNs;
    for (ObservedRead& read : trace.reads)
        read.startNs -= origin;
    std::stable_sort(
        trace.deviceReads.begin(), trace.deviceReads.end(),
        [](const ObservedDeviceRead& a, const ObservedDeviceRead& b) { return a.startNs < b.startNs; });
    for (ObservedDeviceRead& read : trace.deviceReads)
        read.startNs = std::max<std::int64_t>(read.startNs - origin, 0);
    for (ObservedWait& wait : trace.waits)
        wait.timeNs = std::max<std::int64_t>(wait.timeNs - origin, 0);
}

} // namespace

std::optional<ObservedTrace> importTrace(const TraceImportRequest& request,
                                         const TraceImportCallbacks& callbacks) {
    LineReader reader(request.path);
    const std::string traceName = "trace " + quotedName(request.path);
    ObservedTrace trace;
    const std::vector<std::string> first = firstLines(reader, traceName);
    trace.format = formatOf(request.format, traceName, first);
    requireKnownVersion(trace.format, traceName, first.front());

    ScanProgress progress{callbacks.progress, callbacks.cancel, 0, 2 * reader.size()};
    const std::string_view wanted =
        request.relation.starts_with("fd:") ? std::string_view() : splitSegment(request.relation).relation;
    std::vector<std::uint64_t> listed;
    std::string note;
    Selection selection;
    bool deviceReadsAreReads = false;
    {
        Inventory devices(wanted);
        Inventory calls(wanted, trace.format == TraceFormat::Kernel ? &devices : nullptr);
        ScanStats stats;
        if (!scanTrace(reader, trace.format, calls, stats, progress))
            return std::nullopt;
        // A kernel capture without calls (io_uring's reads are none; version 1 recorded none): its
        // device reads are the reads, as far as it can tell.
        deviceReadsAreReads = calls.reads() == 0 && devices.reads() > 0;
        const Inventory& inventory = deviceReadsAreReads ? devices : calls;
        requireReads(traceName, trace.format, stats, inventory);
        const std::vector<Inventory::Count> top = inventory.top(kListedFiles);
        for (const Inventory::Count& count : top) {
            trace.files.push_back({{}, count.reads, count.bytes});
            listed.push_back(count.hash);
        }
        trace.otherFiles = inventory.files() - top.size();
        if (inventory.uncountedReads() > 0)
            trace.notes.push_back(
                std::to_string(inventory.uncountedReads()) + " read(s) of files first seen after " +
                std::to_string(kMaxCountedFiles) +
                " others were not counted per file (choose such a file with --trace-relation)");
        selection = choose(request.relation, traceName, inventory, top, trace.relation, note);
        if (!selection.byFd) // no doubling: the reads are most of the memory
            trace.reads.reserve(inventory.readsOf(selection.hash));
    } // the per-file counters go before the reads are kept

    progress.doneBefore = reader.size();
    ReadCollector collector(selection, trace, listed, deviceReadsAreReads);
    ScanStats stats;
    if (!scanTrace(reader, trace.format, collector, stats, progress))
        return std::nullopt;
    if (trace.relation.empty())
        trace.relation = collector.name();
    if (trace.reads.empty() && trace.failedReads > 0)
        throw InputError(traceName + ": every read of " + quotedName(trace.relation) + " failed (" +
                         std::to_string(trace.failedReads) + " errors)");
    if (trace.reads.empty())
        throw InputError(traceName + " has no reads of " + quotedName(trace.relation));
    trace.lines = stats.lines;
    trace.uringEnters = stats.uringEnters;
    trace.unmatchedResumes = stats.unmatchedResumes;
    if (!note.empty())
        trace.notes.push_back(note);
    if (reader.grew())
        trace.notes.push_back(traceName +
                              " grew while it was read (is it still being written?): it was read up to its " +
                              std::to_string(reader.size()) + " bytes at the start");
    addNotes(trace, stats, collector);
    if (deviceReadsAreReads)
        trace.notes.emplace_back(
            "the capture holds no read calls, so its reads are the device's: reads submitted "
            "through io_uring are not system calls, and a version 1 capture recorded none");
    sortByStart(trace);
    if (trace.format == TraceFormat::Kernel && !deviceReadsAreReads)
        classifyCalls(trace, collector.deviceWork());
    attributeWaits(request, trace);
    rebaseTimes(trace);
    return trace;
}

} // namespace la

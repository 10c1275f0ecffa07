// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_importer.h"

#include "block_size.h"
#include "input_error.h"
#include "message_text.h"
#include "segment_path.h"
#include "text_cursor.h"
#include "trace_scanner.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <unordered_map>

namespace la {

namespace {

constexpr std::size_t kDetectLines = 200;
constexpr std::uint64_t kDetectBytes = 64 * 1024;
constexpr std::int64_t kUntimedSpacingNs = 1000;

std::string quoted(const std::string& path) {
    return "'" + excerpt(path) + "'";
}

// Which reads belong to the relation.
struct Selection {
    bool byFd = false;
    std::int64_t fd = -1;
    bool anyProcess = true;
    std::uint32_t pid = 0;
    std::string relation; // by path: segment 0's path

    bool matches(const TraceLine& line) const {
        if (byFd)
            return line.fd == fd && (anyProcess || line.pid == pid) && (anyProcess || line.path.empty());
        return !line.path.empty() && splitSegment(line.path).relation == relation;
    }
};

// Pass 1: every file read, with counts.
class Inventory final : public TraceVisitor {
public:
    struct File {
        TracedFile listed;
        Selection selection;
        std::uint64_t order = 0;
    };

    void read(const TraceLine& line) override {
        ++m_reads;
        File& file = fileOf(line);
        if (line.failed)
            return;
        ++file.listed.reads;
        file.listed.bytes += line.bytes;
    }

    std::uint64_t reads() const { return m_reads; }
    // Most reads first, then in order of first appearance.
    std::vector<File> files() const {
        std::vector<File> list;
        list.reserve(m_files.size());
        for (const auto& entry : m_files)
            list.push_back(entry.second);
        std::sort(list.begin(), list.end(), [](const File& a, const File& b) {
            return a.listed.reads != b.listed.reads ? a.listed.reads > b.listed.reads : a.order < b.order;
        });
        return list;
    }

private:
    File& fileOf(const TraceLine& line) {
        if (!line.path.empty()) {
            const std::string_view relation = splitSegment(line.path).relation;
            // Consecutive reads are nearly always of the same file: skip the hash lookup then.
            if (m_last && relation == m_lastKey)
                return *m_last;
            m_lastKey.assign(relation);
        } else {
            // Built by appending: `"literal" + std::string` trips GCC 12's -Wrestrict false positive at
            // -O3 (GCC bug 105329). \x01 keeps these keys apart from paths.
            m_lastKey.assign(1, '\x01')
                .append(std::to_string(line.fd))
                .append(1, '@')
                .append(std::to_string(line.pid));
        }
        auto [it, inserted] = m_files.try_emplace(m_lastKey);
        if (inserted) {
            File& file = it->second;
            file.order = m_files.size();
            if (line.path.empty()) {
                file.listed.name =
                    "fd " + std::to_string(line.fd) + " of process " + std::to_string(line.pid);
                file.selection = Selection{true, line.fd, false, line.pid, {}};
            } else {
                file.listed.name = m_lastKey;
                file.selection.relation = m_lastKey;
            }
        }
        m_last = line.path.empty() ? nullptr : &it->second;
        return it->second;
    }

    std::unordered_map<std::string, File> m_files;
    std::string m_lastKey;
    File* m_last = nullptr; // stable: unordered_map never moves its elements
    std::uint64_t m_reads = 0;
};

// Pass 2: the relation's reads.
class Collector final : public TraceVisitor {
public:
    explicit Collector(const Selection& selection, ObservedTrace& trace)
        : m_selection(selection), m_trace(trace) {}

    void read(const TraceLine& line) override {
        if (!m_selection.matches(line))
            return;
        if (line.failed) {
            ++m_trace.failedReads;
            return;
        }
        if (line.bytes == 0)
            return; // nothing read
        const std::uint32_t segment = line.path.empty() ? 0 : splitSegment(line.path).segment;
        const std::uint64_t first = segment * kBlocksPerSegment + line.offset / kBlockSize;
        const std::uint64_t end =
            segment * kBlocksPerSegment + (line.offset + line.bytes + kBlockSize - 1) / kBlockSize;
        if (end > UINT32_MAX)
            throw InputError("a read at byte " + std::to_string(line.offset) + " of " +
                             quoted(m_trace.relation) + " is past block 2^32, beyond any relation");
        if (line.offset % kBlockSize != 0 || line.bytes % kBlockSize != 0)
            ++m_trace.unalignedReads;
        ObservedRead read;
        read.block = static_cast<std::uint32_t>(first);
        read.nblocks = static_cast<std::uint32_t>(end - first);
        read.durationNs = std::max<std::int64_t>(line.durationNs, 0);
        if (line.hasTime) {
            read.startNs = line.timeNs;
        } else {
            m_trace.hasTimes = false;
            read.startNs = static_cast<std::int64_t>(m_trace.reads.size()) * kUntimedSpacingNs;
        }
        if (line.durationNs >= 0)
            m_trace.hasDurations = true;
        read.process = processIndex(line.pid);
        if (m_trace.format == TraceFormat::LookaheadCsv)
            m_byIoId[line.ioId] = static_cast<std::uint32_t>(m_trace.reads.size());
        m_trace.reads.push_back(read);
    }

    void completed(const TraceLine& line) override {
        if (!m_selection.matches(line))
            return;
        const auto found = m_byIoId.find(line.ioId);
        if (found == m_byIoId.end())
            return;
        ObservedRead& read = m_trace.reads[found->second];
        read.durationNs = std::max<std::int64_t>(line.timeNs - read.startNs, 0);
        m_trace.hasDurations = true;
        m_byIoId.erase(found);
    }

    void waited(const TraceLine& line) override {
        if (!m_selection.matches(line))
            return;
        const auto found = m_byIoId.find(line.ioId);
        if (found != m_byIoId.end())
            m_trace.waits.push_back({line.timeNs, found->second});
    }

private:
    std::uint32_t processIndex(std::uint32_t pid) {
        auto& processes = m_trace.processes;
        if (m_lastProcess < processes.size() && processes[m_lastProcess] == pid)
            return m_lastProcess;
        const auto found = std::find(processes.begin(), processes.end(), pid);
        m_lastProcess = static_cast<std::uint32_t>(found - processes.begin());
        if (found == processes.end())
            processes.push_back(pid);
        return m_lastProcess;
    }

    const Selection& m_selection;
    ObservedTrace& m_trace;
    std::unordered_map<std::uint32_t, std::uint32_t> m_byIoId; // CSV reads not yet completed
    std::uint32_t m_lastProcess = 0;
};

// The first lines, for detecting the format; rejects empty and binary files.
std::vector<std::string> firstLines(LineReader& reader, const std::string& path) {
    if (reader.size() == 0)
        throw InputError("trace " + quoted(path) + " is empty");
    std::vector<std::string> lines;
    std::string_view line;
    while (lines.size() < kDetectLines && reader.bytesConsumed() < kDetectBytes && reader.next(line)) {
        if (std::memchr(line.data(), '\0', line.size()))
            throw InputError("trace " + quoted(path) +
                             " is a binary file, not a strace, perf trace or Lookahead trace CSV text");
        if (line.find_first_not_of(" \t") != std::string_view::npos)
            lines.emplace_back(line);
    }
    if (lines.empty())
        throw InputError("trace " + quoted(path) + " is empty");
    return lines;
}

TraceFormat formatOf(const TraceImportRequest& request, const std::vector<std::string>& lines) {
    if (request.format != TraceFormat::Auto)
        return request.format;
    const std::optional<TraceFormat> detected = detectTraceFormat(lines);
    if (!detected)
        throw InputError("trace " + quoted(request.path) +
                         " is not strace, perf trace or Lookahead trace CSV output (its first line is '" +
                         excerpt(lines.front(), 80) + "'); see docs/trace-import.md");
    return *detected;
}

void requireReads(const TraceImportRequest& request, TraceFormat format, const ScanStats& stats,
                  const Inventory& inventory) {
    if (stats.badLines > 0) {
        std::string shown;
        for (const std::string& bad : stats.firstBad)
            shown += (shown.empty() ? "" : "; ") + bad;
        throw InputError("trace " + quoted(request.path) + ": " + std::to_string(stats.badLines) + " of " +
                         std::to_string(stats.lines) + " lines are not " + traceFormatName(format) +
                         " output or are cut short (" + shown + ")");
    }
    if (inventory.reads() > 0)
        return;
    if (stats.uringEnters > 0)
        throw InputError("trace " + quoted(request.path) + " shows " + std::to_string(stats.uringEnters) +
                         " io_uring_enter calls and no preads: reads submitted through io_uring are not "
                         "system calls a trace can see; trace with io_method=worker or io_method=sync");
    throw InputError("trace " + quoted(request.path) + " has no reads (pread64, preadv or preadv2)");
}

// The selection and its name; `expectedReads` is set when the listing knows how many reads it has.
Selection choose(const TraceImportRequest& request, const std::vector<Inventory::File>& files,
                 std::string& name, std::uint64_t& expectedReads) {
    const std::string& wanted = request.relation;
    if (wanted.empty()) {
        name = files.front().listed.name;
        expectedReads = files.front().listed.reads;
        return files.front().selection;
    }
    if (wanted.starts_with("fd:")) {
        std::uint64_t fd = 0;
        TextCursor c(std::string_view(wanted).substr(3));
        if (!c.readUnsigned(fd) || !c.atEnd())
            throw InputError("--trace-relation " + quoted(wanted) +
                             ": expected fd:N with a descriptor number");
        name = wanted;
        return Selection{true, static_cast<std::int64_t>(fd), true, 0, {}};
    }
    const std::string_view relation = splitSegment(wanted).relation;
    const Inventory::File* match = nullptr;
    for (const Inventory::File& file : files) {
        const std::string& key = file.selection.relation;
        const bool exact = key == relation;
        const bool suffix = key.size() > relation.size() && key.ends_with(relation) &&
                            key[key.size() - relation.size() - 1] == '/';
        if (!exact && !suffix)
            continue;
        if (exact) {
            match = &file;
            break;
        }
        if (match)
            throw InputError("--trace-relation " + quoted(wanted) + " matches both " +
                             quoted(match->listed.name) + " and " + quoted(file.listed.name) +
                             "; give more of the path");
        match = &file;
    }
    if (!match)
        throw InputError("--trace-relation " + quoted(wanted) + ": no reads of that file in trace " +
                         quoted(request.path) + " (the most read is " + quoted(files.front().listed.name) +
                         ")");
    name = match->listed.name;
    expectedReads = match->listed.reads;
    return match->selection;
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

// Times from the first read's start.
void rebaseTimes(ObservedTrace& trace) {
    const std::int64_t origin = trace.reads.empty() ? 0 : trace.reads.front().startNs;
    for (ObservedRead& read : trace.reads)
        read.startNs -= origin;
    for (ObservedWait& wait : trace.waits)
        wait.timeNs = std::max<std::int64_t>(wait.timeNs - origin, 0);
}

} // namespace

std::optional<ObservedTrace> importTrace(const TraceImportRequest& request,
                                         const TraceImportCallbacks& callbacks) {
    LineReader reader(request.path);
    ObservedTrace trace;
    trace.format = formatOf(request, firstLines(reader, request.path));

    ScanProgress progress{callbacks.progress, callbacks.cancel, 0, 2 * reader.size()};
    Inventory inventory;
    ScanStats stats;
    if (!scanTrace(reader, trace.format, inventory, stats, progress))
        return std::nullopt;
    requireReads(request, trace.format, stats, inventory);
    const std::vector<Inventory::File> files = inventory.files();
    for (const Inventory::File& file : files)
        trace.files.push_back(file.listed);
    std::uint64_t expectedReads = 0;
    const Selection selection = choose(request, files, trace.relation, expectedReads);
    trace.reads.reserve(expectedReads); // no doubling: the reads are most of the memory

    progress.doneBefore = reader.size();
    Collector collector(selection, trace);
    if (!scanTrace(reader, trace.format, collector, stats, progress))
        return std::nullopt;
    if (trace.reads.empty() && trace.failedReads > 0)
        throw InputError("trace " + quoted(request.path) + ": every read of " + quoted(trace.relation) +
                         " failed (" + std::to_string(trace.failedReads) + " errors)");
    if (trace.reads.empty())
        throw InputError("trace " + quoted(request.path) + " has no reads of " + quoted(trace.relation));
    trace.lines = stats.lines;
    trace.uringEnters = stats.uringEnters;
    trace.unmatchedResumes = stats.unmatchedResumes;
    sortByStart(trace);
    rebaseTimes(trace);
    return trace;
}

} // namespace la

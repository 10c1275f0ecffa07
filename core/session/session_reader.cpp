// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_file.h"

#include "figure_limits.h"
#include "files/input_file.h"
#include "message_text.h"
#include "observed/trace_format.h"
#include "session/session_schema.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace la {

namespace {

// What a reader accepts (docs/session-format.md, "Damaged files"). Times are nanoseconds from the
// run's start, at most kMaxRunTimeNs: a start plus a duration cannot overflow or reach a "never"
// sentinel.
constexpr std::int64_t kMaxTimeNs = kMaxRunTimeNs;
// One read(2) moves at most 2 GiB - 4 KiB (Linux's MAX_RW_COUNT): 262,144 blocks, one more unaligned.
constexpr std::int64_t kMaxTracedReadBlocks = 262145;
// Blocks are numbered in 32 bits: a read ends at block 2^32 at the latest.
constexpr std::int64_t kBlockLimit = std::int64_t{1} << 32;
constexpr std::int64_t kUint32Max = UINT32_MAX;
// No value of a session is read if it is larger (an event chunk is 2 MiB, a summary JSON 8 MiB at most).
constexpr std::uint64_t kMaxValueBytes = std::uint64_t{64} << 20;

// A file name as an SQLite URI path: '%', '?' and '#' would end or change it.
std::string uriPath(const std::string& path) {
    std::string uri = "file:";
    const std::string absolute = std::filesystem::absolute(path).string();
    for (const char c : absolute) {
        if (c == '%' || c == '?' || c == '#') {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
            uri += hex;
        } else {
            uri += c;
        }
    }
    return uri;
}

std::string columnText(sqlite3_stmt* statement, int column) {
    const auto* text = sqlite3_column_text(statement, column);
    return text ? std::string(reinterpret_cast<const char*>(text)) : std::string();
}

// What a reader accepts beyond the constants above: --io-combine-limit's maximum (core/run_options.cpp).
constexpr std::int64_t kMaxIoCombineLimit = 128;

struct Finalize {
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
using Statement = std::unique_ptr<sqlite3_stmt, Finalize>;

// A whole number in [low, high], as text for a message if it is not.
bool wholeIn(sqlite3_stmt* row, int column, std::int64_t low, std::int64_t high, std::int64_t& out) {
    out = sqlite3_column_int64(row, column);
    return sqlite3_column_type(row, column) == SQLITE_INTEGER && out >= low && out <= high;
}

std::string shownValue(sqlite3_stmt* row, int column) {
    if (sqlite3_column_type(row, column) == SQLITE_INTEGER)
        return std::to_string(sqlite3_column_int64(row, column));
    return "not a whole number";
}

// Why a stored event cannot be one of run `info`'s, or nullptr. Counts what it has seen.
struct EventCheck {
    const SessionRun& info;
    std::uint64_t positions = 0;
    std::uint64_t reads = 0;

    const char* fault(const Event& e) {
        if (e.time_ns < 0 || e.time_ns > kMaxTimeNs)
            return "its time is negative or absurd";
        const bool device =
            e.kind == EventKind::DeviceReadStarted || e.kind == EventKind::DeviceReadCompleted;
        if (e.stream >= kMaxPlanStreams)
            return "its stream is past the 64 a run can have";
        if ((e.flags & ~(device ? event_flag::readAhead : event_flag::miss | event_flag::waited)) != 0)
            return "its flags are unknown";
        // An imported trace's reads count blocks read, not buffers handed out: it has no positions.
        if (!info.observed && e.position > info.positions)
            return "its position is past the run's last";
        switch (e.kind) {
        case EventKind::Consumed:
            if (++positions > info.positions)
                return "the run has more positions than it says";
            return e.block == UINT32_MAX ? "its block is past the last block there can be" : nullptr;
        case EventKind::ReadStarted:
            if (++reads > info.reads)
                return "the run has more reads than it says";
            if (e.nblocks == 0 || std::int64_t{e.block} + e.nblocks > kBlockLimit ||
                (info.ioCombineLimit > 0 && e.nblocks > info.ioCombineLimit))
                return "its read's blocks are out of range (past block 2^32 or io_combine_limit)";
            return nullptr;
        case EventKind::EndOfStream:
            return nullptr;
        case EventKind::Reset: // the distance pane's marks
            return info.observed ? "an imported trace has no resets" : nullptr;
        case EventKind::DeviceReadStarted:
        case EventKind::DeviceReadCompleted:
            // Only an imported kernel capture has the device's reads; not io_combine_limit-bound.
            if (!info.observed)
                return "a modelled run has no device reads";
            if (e.nblocks == 0 || std::int64_t{e.block} + e.nblocks > kBlockLimit)
                return "its device read's blocks are out of range (past block 2^32)";
            return nullptr;
        default:
            return "its kind is not one a session stores";
        }
    }
};

// The first event of a chunk that cannot be the run's, by its index in the chunk; none if `why` is null.
struct EventFault {
    const char* why = nullptr;
    std::size_t index = 0;
};

// Decodes a chunk's events into `batch`, checking each in turn; stops at the first fault.
EventFault decodeChunk(const std::vector<unsigned char>& bytes, std::vector<Event>& batch,
                       EventCheck& check) {
    batch.resize(bytes.size() / kSessionEventBytes);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        batch[i] = decodeSessionEvent(bytes.data() + i * kSessionEventBytes);
        if (const char* why = check.fault(batch[i]))
            return {why, i};
    }
    return {};
}

// One incremental BLOB handle for a run's event chunks, moved from row to row.
struct BlobClose {
    void operator()(sqlite3_blob* blob) const { sqlite3_blob_close(blob); }
};
using Blob = std::unique_ptr<sqlite3_blob, BlobClose>;

class ChunkBlob {
public:
    // Reads the BLOB of `rowid` into `bytes`, whose size it must have; false if it cannot.
    bool read(sqlite3* db, std::int64_t rowid, std::vector<unsigned char>& bytes) {
        int opened = SQLITE_OK;
        if (m_blob) {
            opened = sqlite3_blob_reopen(m_blob.get(), rowid);
        } else {
            sqlite3_blob* handle = nullptr;
            opened = sqlite3_blob_open(db, "main", "events", "data", rowid, 0, &handle);
            m_blob.reset(handle);
        }
        const auto size = static_cast<int>(bytes.size());
        return opened == SQLITE_OK && sqlite3_blob_bytes(m_blob.get()) == size &&
               sqlite3_blob_read(m_blob.get(), bytes.data(), size, 0) == SQLITE_OK;
    }

private:
    Blob m_blob;
};

} // namespace

SessionReader::SessionReader(std::string path) : m_path(std::move(path)) {
    try {
        load();
    } catch (...) {
        sqlite3_close(m_db);
        throw;
    }
}

void SessionReader::load() {
    checkFile();
    openDatabase();
    readFacts();
    readRuns();
    readRunFields();
    // Rows of runs the file does not list, or an imported trace of a run that did not import one.
    if (scalar("SELECT count(*) FROM events WHERE run NOT IN (SELECT run FROM runs)") != 0)
        damaged("it has events of a run it does not list");
    if (scalar("SELECT count(*) FROM observed WHERE run NOT IN (SELECT run FROM runs WHERE observed = 1)") !=
        0)
        damaged("it has an imported trace of a run that is not an observed one");
}

void SessionReader::refuse(std::string_view why) const {
    throw InputError(joined({"session '", m_path, "': ", why}));
}

void SessionReader::checkFile() {
    InputFile file = openInputFile(m_path, "session", "open a .lookahead file saved by Lookahead");
    m_file = std::move(file.fd);
    m_fileBytes = file.bytes;
    // Probe the header ourselves: SQLite would call any file "not a database" only at the first query.
    char header[16] = {};
    const ssize_t n = ::pread(m_file.get(), header, sizeof header, 0);
    if (n != 16 || std::memcmp(header, "SQLite format 3", 16) != 0)
        refuse("not a Lookahead session (not an SQLite database); open a .lookahead file saved by Lookahead");
}

void SessionReader::openDatabase() {
    // SQLite opens the file it is given by name: the descriptor checked above, so that a path
    // swapped since (for a FIFO, which would hang the open) is not what it reads.
    // immutable=1: no locks, no journal, no -shm: the file is only ever read.
    const std::string uri = uriPath("/proc/self/fd/" + std::to_string(m_file.get())) + "?immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK)
        damaged(m_db ? sqlite3_errmsg(m_db) : "out of memory");
    // A backstop for every column: a larger value is refused by SQLite before it is read into memory
    // (SQLITE_TOOBIG). The columns that may be large have their own, tighter checks.
    sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, int(kMaxValueBytes));
}

std::int64_t SessionReader::scalar(const char* sql) const {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(m_db, sql, -1, &raw, nullptr) != SQLITE_OK)
        damaged(sqlite3_errmsg(m_db));
    const Statement statement(raw);
    if (sqlite3_step(raw) != SQLITE_ROW)
        damaged(sqlite3_errmsg(m_db));
    return static_cast<std::int64_t>(sqlite3_column_int64(raw, 0));
}

void SessionReader::readFacts() {
    const std::int64_t tables = scalar(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('meta', 'runs', 'events')");
    if (scalar("PRAGMA application_id") != kSessionApplicationId || tables < 1)
        refuse("an SQLite database but not a Lookahead session (no 'meta' table); open a .lookahead "
               "file saved by Lookahead");
    // Facts about the file and where it ran; a command line may be long, a megabyte is not one.
    const auto fact = [&](sqlite3_stmt* s, int column) {
        return text(
            s, column, [] { return std::string("a meta or provenance entry"); }, kMaxFactBytes);
    };
    forEachRow("SELECT key, value FROM meta", std::nullopt,
               [&](sqlite3_stmt* s) { m_meta.emplace_back(fact(s, 0), fact(s, 1)); });
    // The format is in two places; the newer of the two is the one named (a number past long's range
    // as it is written).
    const std::int64_t version = scalar("PRAGMA user_version");
    const std::string metaVersion = meta("format_version");
    const bool metaNewer = std::strtol(metaVersion.c_str(), nullptr, 10) > kSessionFormatVersion;
    if (version > kSessionFormatVersion || metaNewer)
        refuse(joined({"made by Lookahead ", excerpt(meta("lookahead_version"), 40), " (session format ",
                       metaNewer ? excerpt(metaVersion, 40) : std::to_string(version),
                       "); this is Lookahead ", LOOKAHEAD_VERSION, ", which reads format ",
                       std::to_string(kSessionFormatVersion), ": open it with a newer Lookahead"}));
    if (tables != 3 || meta("format") != "lookahead.session")
        damaged("its tables are incomplete");
    forEachRow("SELECT key, value FROM provenance", std::nullopt,
               [&](sqlite3_stmt* s) { m_provenance.emplace_back(fact(s, 0), fact(s, 1)); });
}

void SessionReader::readRuns() {
    // Every stored event takes 32 bytes of the file: a larger count is not this file's.
    const auto maxEvents = static_cast<std::int64_t>(m_fileBytes / kSessionEventBytes);
    forEachRow(
        "SELECT run, label, policy, observed, trace_path, max_pinned, io_combine_limit, collapse_window, "
        "events, positions, reads, rowid, typeof(summary_json) FROM runs ORDER BY run",
        std::nullopt, [&](sqlite3_stmt* s) {
            const std::string which = "run " + std::to_string(m_runs.size());
            const auto field = [&](int column, const char* name, std::int64_t low, std::int64_t high) {
                return whole(s, column, low, high, [&] { return joined({which, "'s ", name}); });
            };
            const auto number = static_cast<std::int64_t>(m_runs.size());
            field(0, "number (runs are numbered 0, 1, ...)", number, number);
            SessionRun run;
            run.label = sessionLabel(columnText(s, 1));
            run.policy = text(s, 2, [&] { return which + "'s policy"; });
            run.observed = field(3, "observed flag", 0, 1) != 0;
            run.tracePath = text(s, 4, [&] { return which + "'s trace path"; });
            run.maxPinned = static_cast<int>(field(5, "max_pinned", 0, INT32_MAX));
            run.ioCombineLimit = static_cast<int>(field(6, "io_combine_limit", 0, kMaxIoCombineLimit));
            run.collapseWindow = static_cast<int>(field(7, "collapse_window", 1, 1 << 30));
            const std::int64_t events = field(8, "event count", 0, maxEvents);
            const std::int64_t positions = field(9, "position count", 0, events);
            run.reads = static_cast<std::uint64_t>(field(10, "read count", 0, events - positions));
            run.events = static_cast<std::uint64_t>(events);
            run.positions = static_cast<std::uint64_t>(positions);
            const std::string type = columnText(s, 12);
            if (type == "text")
                run.summaryJson = summaryJson(sqlite3_column_int64(s, 11), which);
            else if (type != "null")
                damaged(joined({which, "'s summary JSON is not text"}));
            m_runs.push_back(std::move(run));
        });
    if (m_runs.empty())
        refuse("it holds no runs; save a run that has finished");
}

std::string SessionReader::summaryJson(std::int64_t rowid, const std::string& which) const {
    // Its size is known before its bytes are read: a reader that took a 300 MB text in whole, and
    // parsed it, would need a gigabyte for what is shown of it.
    sqlite3_blob* raw = nullptr;
    const int opened = sqlite3_blob_open(m_db, "main", "runs", "summary_json", rowid, 0, &raw);
    const Blob blob(raw);
    if (opened != SQLITE_OK)
        damaged(joined({which, "'s summary JSON cannot be read: ", sqlite3_errmsg(m_db)}));
    const int bytes = sqlite3_blob_bytes(raw);
    if (std::uint64_t(bytes) > kMaxSummaryJsonBytes)
        damaged(joined({which, "'s summary JSON is ", byteSize(std::uint64_t(bytes)), ", more than the ",
                        byteSize(kMaxSummaryJsonBytes), " a run's entry with its repeats' summaries takes"}));
    std::string text(std::size_t(bytes), '\0');
    if (sqlite3_blob_read(raw, text.data(), bytes, 0) != SQLITE_OK)
        damaged(joined({which, "'s summary JSON cannot be read: ", sqlite3_errmsg(m_db)}));
    return text;
}

void SessionReader::readRunFields() {
    // Counted before any is read, and no further than the most the runs can have: millions of rows
    // would be read, held and never shown.
    const std::int64_t most = static_cast<std::int64_t>(m_runs.size()) * kSessionFieldsPerRun;
    for (const char* table : {"options", "summary"}) {
        const std::string count =
            joined({"SELECT count(*) FROM (SELECT 1 FROM ", table, " LIMIT ", std::to_string(most + 1), ")"});
        if (scalar(count.c_str()) > most)
            damaged(joined({"its table ", table, " holds more than the ",
                            std::to_string(kSessionFieldsPerRun), " rows a run has at most"}));
    }
    const auto runOf = [&](sqlite3_stmt* s, const char* table) -> SessionRun& {
        const std::int64_t last = static_cast<std::int64_t>(m_runs.size()) - 1;
        SessionRun& run = m_runs[static_cast<std::size_t>(whole(s, 0, 0, last, [&] {
            return joined({"a row of table ", table, " names a run that"});
        }))];
        if (std::int64_t(run.options.size() + run.summary.size()) >= 2 * kSessionFieldsPerRun)
            damaged(joined({"its table ", table, " holds more than the ",
                            std::to_string(kSessionFieldsPerRun), " rows a run has at most"}));
        return run;
    };
    forEachRow("SELECT run, name, value FROM options ORDER BY run, rowid", std::nullopt,
               [&](sqlite3_stmt* s) {
                   const auto what = [] { return std::string("an option's name or value"); };
                   runOf(s, "options").options.emplace_back(text(s, 1, what), text(s, 2, what));
               });
    forEachRow("SELECT run, name, value FROM summary ORDER BY run, rowid", std::nullopt,
               [&](sqlite3_stmt* s) {
                   const auto what = [] { return std::string("a summary field's name or value"); };
                   runOf(s, "summary").summary.emplace_back(text(s, 1, what), text(s, 2, what));
               });
}

SessionReader::~SessionReader() {
    sqlite3_close(m_db);
}

void SessionReader::damaged(std::string_view why) const {
    throw sessionDamaged(m_path, why);
}

template <class What>
std::int64_t SessionReader::whole(sqlite3_stmt* row, int column, std::int64_t low, std::int64_t high,
                                  const What& what) const {
    std::int64_t value = 0;
    if (!wholeIn(row, column, low, high, value))
        damaged(joined({what(), " is ", shownValue(row, column), ", not in ", std::to_string(low), "..",
                        std::to_string(high)}));
    return value;
}

auto SessionReader::numberedFields(sqlite3_stmt* row, const std::string& which, const char* item,
                                   std::int64_t index) const {
    return
        [this, row, &which, item, index](int column, const char* name, std::int64_t low, std::int64_t high) {
            return whole(row, column, low, high, [&] {
                return joined({which, "'s ", item, " ", std::to_string(index), ": its ", name});
            });
        };
}

template <class What>
std::string SessionReader::text(sqlite3_stmt* row, int column, const What& what, int limit) const {
    if (sqlite3_column_bytes(row, column) > limit)
        damaged(joined({what(), " is longer than ", std::to_string(limit), " bytes"}));
    return columnText(row, column);
}

std::string SessionReader::meta(const std::string& key) const {
    for (const auto& [name, value] : m_meta)
        if (name == key)
            return value;
    return {};
}

void SessionReader::readEvents(std::size_t run,
                               const std::function<void(std::span<const Event>)>& sink) const {
    if (run >= m_runs.size())
        damaged(joined({"it has no run ", std::to_string(run)}));
    const SessionRun& info = m_runs[run];
    const std::string which = "run " + std::to_string(run);
    ChunkBlob blob;
    std::vector<unsigned char> bytes;
    std::vector<Event> batch;
    EventCheck check{info};
    std::uint64_t events = 0;
    std::int64_t chunk = 0;
    // length() of a BLOB is its size, known without reading its bytes: a chunk's bytes are read
    // (through the incremental BLOB API) only once their size matches the count a chunk may have.
    forEachRow(
        "SELECT chunk, count, hash, length(data), rowid, typeof(data) = 'blob' FROM events "
        "WHERE run = ? ORDER BY chunk",
        run, [&](sqlite3_stmt* row) {
            const std::int64_t count = chunkEvents(row, which, chunk);
            bytes.resize(kSessionEventBytes * static_cast<std::size_t>(count));
            if (!blob.read(m_db, sqlite3_column_int64(row, 4), bytes))
                damaged(joined({which, "'s event chunk ", std::to_string(chunk),
                                " cannot be read: ", sqlite3_errmsg(m_db)}));
            if (chunkHash(bytes.data(), bytes.size()) != sqlite3_column_int64(row, 2))
                damaged(joined({which, "'s events are cut, altered or out of order"}));
            if (const EventFault fault = decodeChunk(bytes, batch, check); fault.why)
                damaged(joined({which, "'s event ", std::to_string(events + fault.index), ": ", fault.why}));
            events += batch.size();
            ++chunk;
            sink(batch);
        });
    if (events != info.events || check.positions != info.positions || check.reads != info.reads)
        damaged(joined({which, " has ", std::to_string(events), " of its ", std::to_string(info.events),
                        " events (", std::to_string(check.positions), " of ", std::to_string(info.positions),
                        " positions, ", std::to_string(check.reads), " of ", std::to_string(info.reads),
                        " reads)"}));
}

bool SessionReader::keepsRunFiles() const {
    return scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'run_files'") != 0;
}

std::uint64_t SessionReader::runFileBytes() const {
    if (!keepsRunFiles())
        return 0;
    return static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, scalar("SELECT coalesce(sum(length(data)), 0) FROM run_files")));
}

bool SessionReader::readRunFile(std::size_t run, const std::string& role,
                                const std::function<bool(std::span<const unsigned char>)>& sink) const {
    if (!keepsRunFiles())
        return false; // a session saved before runs kept their files
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(m_db,
                           "SELECT chunk, hash, length(data), typeof(data) = 'blob', data FROM run_files "
                           "WHERE run = ? AND role = ? ORDER BY chunk",
                           -1, &raw, nullptr) != SQLITE_OK)
        damaged(sqlite3_errmsg(m_db));
    const Statement statement(raw);
    sqlite3_bind_int64(raw, 1, static_cast<sqlite3_int64>(run));
    sqlite3_bind_text(raw, 2, role.data(), static_cast<int>(role.size()), SQLITE_TRANSIENT);
    const std::string which = joined({"run ", std::to_string(run), "'s kept ", role, " file"});
    std::int64_t chunk = 0;
    std::uint64_t total = 0;
    int rc = 0;
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
        const auto field = numberedFields(raw, which, "chunk", chunk);
        field(0, "number (chunks are numbered 0, 1, ...)", chunk, chunk);
        const auto bytes = static_cast<std::size_t>(
            field(2, "size in bytes", 0, static_cast<std::int64_t>(kRunFileChunkBytes)));
        if (sqlite3_column_int(raw, 3) != 1)
            damaged(joined({which, "'s chunk ", std::to_string(chunk), " is not a BLOB"}));
        total += bytes;
        if (total > kMaxRunFileBytes)
            damaged(joined(
                {which, " is larger than ", byteSize(kMaxRunFileBytes), ", more than a session keeps"}));
        const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(raw, 4));
        const std::span<const unsigned char> chunkBytes(data, data ? bytes : 0);
        if (chunkBytes.size() != bytes || runFileChunkHash(chunkBytes) != sqlite3_column_int64(raw, 1))
            damaged(joined({which, " is cut, altered or out of order (chunk ", std::to_string(chunk), ")"}));
        ++chunk;
        if (!sink(chunkBytes))
            return true;
    }
    if (rc != SQLITE_DONE)
        damaged(sqlite3_errmsg(m_db));
    return chunk > 0;
}

std::int64_t SessionReader::chunkEvents(sqlite3_stmt* row, const std::string& which,
                                        std::int64_t chunk) const {
    const auto field = numberedFields(row, which, "event chunk", chunk);
    field(0, "number (chunks are numbered 0, 1, ...)", chunk, chunk);
    const std::int64_t count = field(1, "event count", 1, kChunkEvents);
    const auto size = static_cast<std::int64_t>(kSessionEventBytes) * count;
    if (sqlite3_column_int(row, 5) != 1)
        damaged(joined({which, "'s event chunk ", std::to_string(chunk), " is not a BLOB"}));
    field(3, "size in bytes (32 per event)", size, size);
    return count;
}

void SessionReader::forEachRow(const char* sql, std::optional<std::size_t> run,
                               const std::function<void(sqlite3_stmt*)>& row) const {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(m_db, sql, -1, &raw, nullptr) != SQLITE_OK)
        damaged(sqlite3_errmsg(m_db));
    const Statement statement(raw);
    if (run)
        sqlite3_bind_int64(raw, 1, static_cast<sqlite3_int64>(*run));
    int rc = 0;
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW)
        row(raw);
    if (rc == SQLITE_TOOBIG)
        damaged(joined({"it holds a value larger than ", byteSize(kMaxValueBytes),
                        ", which no session Lookahead writes holds"}));
    if (rc != SQLITE_DONE)
        damaged(sqlite3_errmsg(m_db));
}

std::optional<ObservedTrace> SessionReader::observedFacts(std::size_t run) const {
    const std::string which = "run " + std::to_string(run);
    std::optional<ObservedTrace> trace;
    forEachRow(
        "SELECT format, relation, has_times, has_durations, lines, failed_reads, unaligned_reads, "
        "unmatched_resumes, uring_enters, processes FROM observed WHERE run = ?",
        run, [&](sqlite3_stmt* s) {
            const auto field = [&](int column, const char* name, std::int64_t low, std::int64_t high) {
                return whole(s, column, low, high, [&] {
                    return joined({which, "'s imported trace: its ", name});
                });
            };
            ObservedTrace t;
            const std::string format = columnText(s, 0);
            t.format = traceFormatIfNamed(format).value_or(TraceFormat::Auto);
            if (t.format == TraceFormat::Auto)
                damaged(joined({which, "'s imported trace has the unknown format ", excerpt(format, 40)}));
            t.relation = text(s, 1, [&] { return which + "'s traced relation"; });
            t.hasTimes = field(2, "has_times flag", 0, 1) != 0;
            t.hasDurations = field(3, "has_durations flag", 0, 1) != 0;
            t.lines = static_cast<std::uint64_t>(field(4, "line count", 0, INT64_MAX));
            t.failedReads = static_cast<std::uint64_t>(field(5, "failed read count", 0, INT64_MAX));
            t.unalignedReads = static_cast<std::uint64_t>(field(6, "unaligned read count", 0, INT64_MAX));
            t.unmatchedResumes = static_cast<std::uint64_t>(field(7, "unmatched resume count", 0, INT64_MAX));
            t.uringEnters = static_cast<std::uint64_t>(field(8, "io_uring_enter count", 0, INT64_MAX));
            // Process ids, one space between: anything else is not what the writer wrote.
            const std::string pids = columnText(s, 9);
            for (std::size_t at = 0; at < pids.size();) {
                std::size_t end = pids.find(' ', at);
                if (end == std::string::npos)
                    end = pids.size();
                std::uint32_t pid = 0;
                const auto [stop, error] = std::from_chars(pids.data() + at, pids.data() + end, pid);
                if (error != std::errc() || stop != pids.data() + end || end == at)
                    damaged(joined({which, "'s imported trace has a malformed process list"}));
                t.processes.push_back(pid);
                at = end + 1;
            }
            trace = std::move(t);
        });
    return trace;
}

void SessionReader::readObservedReads(std::size_t run, ObservedTrace& trace) const {
    const std::string which = "run " + std::to_string(run);
    const SessionRun& info = m_runs[run];
    // Reads by start time, each inside block 2^32 and no longer than one read(2) can be, naming a
    // process of the list; as many as the run's stored events say, so none is allocated beyond that.
    std::int64_t previousStart = 0;
    forEachRow(
        "SELECT read, start_ns, duration_ns, block, nblocks, process FROM observed_reads WHERE run = ? "
        "ORDER BY read",
        run, [&](sqlite3_stmt* s) {
            const auto index = static_cast<std::int64_t>(trace.reads.size());
            const auto field = numberedFields(s, which, "imported read", index);
            if (static_cast<std::uint64_t>(index) >= info.reads)
                damaged(joined(
                    {which, "'s imported trace has more reads than the run's ", std::to_string(info.reads)}));
            field(0, "number (reads are numbered 0, 1, ...)", index, index);
            ObservedRead read;
            read.startNs = field(1, "start (ns, reads in start order)", previousStart, kMaxTimeNs);
            read.durationNs = field(2, "duration (ns)", 0, kMaxTimeNs);
            const std::int64_t block = field(3, "first block", 0, kUint32Max);
            read.block = static_cast<std::uint32_t>(block);
            read.nblocks =
                static_cast<std::uint32_t>(field(4, "block count (one read(2), below block 2^32)", 1,
                                                 std::min(kMaxTracedReadBlocks, kBlockLimit - block)));
            read.process = static_cast<std::uint32_t>(
                field(5, "process index", 0, static_cast<std::int64_t>(trace.processes.size()) - 1));
            previousStart = read.startNs;
            trace.reads.push_back(read);
        });
    if (trace.reads.size() != info.reads)
        damaged(joined({which, " has ", std::to_string(trace.reads.size()), " of its ",
                        std::to_string(info.reads), " imported reads"}));
}

void SessionReader::readObservedWaits(std::size_t run, ObservedTrace& trace) const {
    const std::string which = "run " + std::to_string(run);
    const auto lastRead = static_cast<std::int64_t>(trace.reads.size()) - 1;
    forEachRow("SELECT wait, time_ns, read FROM observed_waits WHERE run = ? ORDER BY wait", run,
               [&](sqlite3_stmt* s) {
                   const auto index = static_cast<std::int64_t>(trace.waits.size());
                   const auto field = numberedFields(s, which, "imported wait", index);
                   field(0, "number (waits are numbered 0, 1, ...)", index, index);
                   const std::int64_t time = field(1, "time (ns)", 0, kMaxTimeNs);
                   trace.waits.push_back({time, static_cast<std::uint32_t>(field(2, "read", 0, lastRead))});
               });
}

void SessionReader::readObservedFiles(std::size_t run, ObservedTrace& trace) const {
    const std::string which = "run " + std::to_string(run);
    forEachRow("SELECT file, name, reads, bytes FROM observed_files WHERE run = ? ORDER BY file", run,
               [&](sqlite3_stmt* s) {
                   const auto index = static_cast<std::int64_t>(trace.files.size());
                   const auto field = numberedFields(s, which, "traced file", index);
                   field(0, "number (files are numbered 0, 1, ...)", index, index);
                   const auto reads = static_cast<std::uint64_t>(field(2, "read count", 0, INT64_MAX));
                   const auto bytes = static_cast<std::uint64_t>(field(3, "byte count", 0, INT64_MAX));
                   trace.files.push_back(
                       {text(s, 1,
                             [&] {
                                 return joined({which, "'s traced file ", std::to_string(index)});
                             }),
                        reads, bytes});
               });
}

std::optional<ObservedTrace> SessionReader::observed(std::size_t run) const {
    if (run >= m_runs.size())
        damaged(joined({"it has no run ", std::to_string(run)}));
    std::optional<ObservedTrace> trace = observedFacts(run);
    if (!trace)
        return trace;
    readObservedReads(run, *trace);
    readObservedWaits(run, *trace);
    readObservedFiles(run, *trace);
    return trace;
}

} // namespace la

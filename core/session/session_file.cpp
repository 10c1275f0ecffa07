// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_file.h"

#include "input_error.h"
#include "io/protected_symlinks.h"
#include "io/temp_file.h"
#include "io_backend.h"
#include "message_text.h"
#include "trace/trace_format.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace la {

namespace {

static_assert(std::endian::native == std::endian::little, "events are stored little-endian, as in memory");

// Events per BLOB: 2 MiB, big enough that SQLite's per-row cost vanishes, small enough to stream.
constexpr std::uint32_t kChunkEvents = 65536;

bool viewed(EventKind kind) {
    return kind == EventKind::Consumed || kind == EventKind::ReadStarted || kind == EventKind::EndOfStream;
}

template <class T> void put(unsigned char* out, std::size_t at, T value) {
    std::memcpy(out + at, &value, sizeof value);
}
template <class T> T get(const unsigned char* in, std::size_t at) {
    T value;
    std::memcpy(&value, in + at, sizeof value);
    return value;
}

// A check of a chunk's bytes, so that damage inside a BLOB (which SQLite does not check) is found
// rather than drawn: four independent multiply-xor lanes over 64-bit words, fast enough (several
// GB/s) to verify every chunk on open. Chunks are whole events, so a multiple of 32 bytes.
std::int64_t chunkHash(const unsigned char* data, std::size_t bytes) {
    std::uint64_t lane[4] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL,
                             0x27D4EB2F165667C5ULL};
    constexpr std::uint64_t prime = 0x100000001B3ULL;
    for (std::size_t at = 0; at + 32 <= bytes; at += 32)
        for (std::size_t k = 0; k < 4; ++k)
            lane[k] = (lane[k] ^ get<std::uint64_t>(data, at + 8 * k)) * prime;
    std::uint64_t h = bytes;
    for (const std::uint64_t l : lane)
        h = (h ^ (l >> 29) ^ l) * 0xBF58476D1CE4E5B9ULL;
    return static_cast<std::int64_t>(h);
}

std::string randomHex() {
    unsigned long long value = 0;
    if (::getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value))
        value = static_cast<unsigned long long>(::getpid()) * 0x9E3779B97F4A7C15ULL;
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", value);
    return text;
}

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

} // namespace

void encodeSessionEvent(const Event& e, unsigned char* out) {
    put(out, 0, e.time_ns);
    put(out, 8, e.position);
    put(out, 12, e.block);
    put(out, 16, e.io_id);
    put(out, 20, static_cast<std::uint8_t>(e.kind));
    put(out, 21, e.nblocks);
    put(out, 22, e.flags);
    put(out, 23, std::uint8_t{0});
    put(out, 24, e.in_flight);
    put(out, 26, e.distance);
    put(out, 28, e.combine_distance);
    put(out, 30, e.pinned);
}

Event decodeSessionEvent(const unsigned char* in) {
    Event e;
    e.time_ns = get<std::int64_t>(in, 0);
    e.position = get<std::uint32_t>(in, 8);
    e.block = get<std::uint32_t>(in, 12);
    e.io_id = get<std::uint32_t>(in, 16);
    e.kind = static_cast<EventKind>(in[20]);
    e.nblocks = in[21];
    e.flags = in[22];
    e.in_flight = get<std::uint16_t>(in, 24);
    e.distance = get<std::uint16_t>(in, 26);
    e.combine_distance = get<std::uint16_t>(in, 28);
    e.pinned = get<std::uint16_t>(in, 30);
    return e;
}

// ---- writing ----

SessionWriter::SessionWriter(std::string path) : m_path(std::move(path)), m_target(m_path) {
    // A constructor that throws runs no destructor: what was opened is let go here.
    try {
        create();
    } catch (...) {
        release();
        throw;
    }
}

void SessionWriter::create() {
    const auto refuse = [&](const std::string& why) {
        return InputError(joined({"cannot write session '", m_path, "': ", why}));
    };
    if (m_path.empty())
        throw InputError("the session needs a file name");
    if (const std::string planted = foreignSymlink(m_path); !planted.empty())
        throw refuse(planted);
    struct stat st {};
    mode_t mode = 0644;
    if (::stat(m_path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw refuse("it is a directory; give a file name");
        if (!S_ISREG(st.st_mode))
            throw refuse("a session is a database and needs a regular file, not a device or pipe");
        std::error_code error;
        const auto resolved = std::filesystem::canonical(m_path, error);
        if (!error)
            m_target = resolved.string();
        mode = st.st_mode & 07777;
    }
    const std::filesystem::path target(m_target);
    const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
    const std::string name = target.filename().string();
    removeStaleTempFiles(dir.string(), name);
    m_temp = (dir / joined({".", name, ".", std::to_string(::getpid()), ".", randomHex(), ".tmp"})).string();
    const int fd = ::open(m_temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        const int error = errno;
        m_temp.clear(); // not ours to remove
        throw refuse(joined({std::strerror(error), " (in directory '", dir.string(), "')"}));
    }
    markTempFile(fd, m_temp);
    ::fchmod(fd, mode);
    ::close(fd);
    if (sqlite3_open_v2(m_temp.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
        throw refuse(m_db ? sqlite3_errmsg(m_db) : "out of memory");
    }
    // Nothing to roll back to: a failed save is thrown away whole, so no journal and no syncs
    // until commit() (which syncs the file once before the rename).
    exec("PRAGMA page_size = 65536");
    exec("PRAGMA journal_mode = OFF");
    exec("PRAGMA synchronous = OFF");
    exec("PRAGMA locking_mode = EXCLUSIVE");
    exec(joined({"PRAGMA application_id = ", std::to_string(kSessionApplicationId)}).c_str());
    exec(joined({"PRAGMA user_version = ", std::to_string(kSessionFormatVersion)}).c_str());
    exec("BEGIN");
    exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    exec("CREATE TABLE provenance(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    exec("CREATE TABLE runs(run INTEGER PRIMARY KEY, label TEXT NOT NULL, policy TEXT NOT NULL, "
         "observed INTEGER NOT NULL, trace_path TEXT NOT NULL, max_pinned INTEGER NOT NULL, "
         "io_combine_limit INTEGER NOT NULL, collapse_window INTEGER NOT NULL, events INTEGER, "
         "positions INTEGER, reads INTEGER, summary_json TEXT)");
    exec("CREATE TABLE options(run INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, "
         "PRIMARY KEY(run, name))");
    exec("CREATE TABLE summary(run INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, "
         "PRIMARY KEY(run, name))");
    exec("CREATE TABLE events(run INTEGER NOT NULL, chunk INTEGER NOT NULL, count INTEGER NOT NULL, "
         "hash INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(run, chunk))");
    // An observed run's imported trace: its facts, reads, waits and the files it read.
    exec("CREATE TABLE observed(run INTEGER PRIMARY KEY, format TEXT NOT NULL, relation TEXT NOT NULL, "
         "has_times INTEGER NOT NULL, has_durations INTEGER NOT NULL, lines INTEGER NOT NULL, "
         "failed_reads INTEGER NOT NULL, unaligned_reads INTEGER NOT NULL, unmatched_resumes INTEGER NOT "
         "NULL, "
         "uring_enters INTEGER NOT NULL, processes TEXT NOT NULL)");
    exec(
        "CREATE TABLE observed_reads(run INTEGER NOT NULL, read INTEGER NOT NULL, start_ns INTEGER NOT NULL, "
        "duration_ns INTEGER NOT NULL, block INTEGER NOT NULL, nblocks INTEGER NOT NULL, "
        "process INTEGER NOT NULL, PRIMARY KEY(run, read))");
    exec("CREATE TABLE observed_waits(run INTEGER NOT NULL, wait INTEGER NOT NULL, time_ns INTEGER NOT NULL, "
         "read INTEGER NOT NULL, PRIMARY KEY(run, wait))");
    exec("CREATE TABLE observed_files(run INTEGER NOT NULL, file INTEGER NOT NULL, name TEXT NOT NULL, "
         "reads INTEGER NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY(run, file))");
    m_insertChunk = prepare("INSERT INTO events(run, chunk, count, hash, data) VALUES (?, ?, ?, ?, ?)");
    setMeta("format", "lookahead.session");
    setMeta("format_version", std::to_string(kSessionFormatVersion));
    setMeta("lookahead_version", LOOKAHEAD_VERSION);
    m_chunk.resize(std::size_t(kChunkEvents) * kSessionEventBytes);
}

SessionWriter::~SessionWriter() {
    release();
}

void SessionWriter::release() {
    for (sqlite3_stmt* statement : m_statements)
        sqlite3_finalize(statement);
    m_statements.clear();
    if (m_db)
        sqlite3_close(m_db);
    m_db = nullptr;
    if (!m_committed && !m_temp.empty())
        ::unlink(m_temp.c_str());
    m_temp.clear();
}

void SessionWriter::fail(const std::string& what) const {
    throw IoError(joined(
        {"cannot write session '", m_path, "': ", what, ": ", m_db ? sqlite3_errmsg(m_db) : "no database"}));
}

void SessionWriter::exec(const char* sql) {
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
        fail(sql);
}

sqlite3_stmt* SessionWriter::prepare(const char* sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v3(m_db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr) != SQLITE_OK)
        fail(sql);
    m_statements.push_back(statement);
    return statement;
}

namespace {

void bindText(sqlite3_stmt* statement, int column, const std::string& text) {
    sqlite3_bind_text(statement, column, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

} // namespace

void SessionWriter::setMeta(const std::string& key, const std::string& value) {
    sqlite3_stmt* statement = prepare("INSERT OR REPLACE INTO meta VALUES (?, ?)");
    bindText(statement, 1, key);
    bindText(statement, 2, value);
    if (sqlite3_step(statement) != SQLITE_DONE)
        fail("meta");
}

void SessionWriter::setProvenance(const NameValues& provenance) {
    sqlite3_stmt* statement = prepare("INSERT OR REPLACE INTO provenance VALUES (?, ?)");
    for (const auto& [key, value] : provenance) {
        bindText(statement, 1, key);
        bindText(statement, 2, value);
        if (sqlite3_step(statement) != SQLITE_DONE)
            fail("provenance");
        sqlite3_reset(statement);
    }
}

void SessionWriter::beginRun(const SessionRun& run) {
    ++m_run;
    m_runChunks = 0;
    m_current = run;
    m_current.events = m_current.positions = m_current.reads = 0;
    sqlite3_stmt* statement =
        prepare("INSERT INTO runs(run, label, policy, observed, trace_path, max_pinned, io_combine_limit, "
                "collapse_window) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    sqlite3_bind_int64(statement, 1, m_run);
    bindText(statement, 2, run.label);
    bindText(statement, 3, run.policy);
    sqlite3_bind_int(statement, 4, run.observed ? 1 : 0);
    bindText(statement, 5, run.tracePath);
    sqlite3_bind_int(statement, 6, run.maxPinned);
    sqlite3_bind_int(statement, 7, run.ioCombineLimit);
    sqlite3_bind_int(statement, 8, run.collapseWindow);
    if (sqlite3_step(statement) != SQLITE_DONE)
        fail("runs");
    sqlite3_stmt* option = prepare("INSERT OR REPLACE INTO options VALUES (?, ?, ?)");
    for (const auto& [name, value] : run.options) {
        sqlite3_bind_int64(option, 1, m_run);
        bindText(option, 2, name);
        bindText(option, 3, value);
        if (sqlite3_step(option) != SQLITE_DONE)
            fail("options");
        sqlite3_reset(option);
    }
}

void SessionWriter::onEvents(std::span<const Event> batch) {
    for (const Event& event : batch) {
        if (!viewed(event.kind))
            continue;
        encodeSessionEvent(event, m_chunk.data() + std::size_t(m_chunkEvents) * kSessionEventBytes);
        ++m_current.events;
        m_current.positions += event.kind == EventKind::Consumed ? 1 : 0;
        m_current.reads += event.kind == EventKind::ReadStarted ? 1 : 0;
        if (++m_chunkEvents == kChunkEvents)
            flushChunk();
    }
}

void SessionWriter::flushChunk() {
    if (m_chunkEvents == 0)
        return;
    sqlite3_bind_int64(m_insertChunk, 1, m_run);
    sqlite3_bind_int64(m_insertChunk, 2, static_cast<sqlite3_int64>(m_runChunks));
    const std::size_t bytes = std::size_t(m_chunkEvents) * kSessionEventBytes;
    sqlite3_bind_int64(m_insertChunk, 3, m_chunkEvents);
    sqlite3_bind_int64(m_insertChunk, 4, chunkHash(m_chunk.data(), bytes));
    sqlite3_bind_blob(m_insertChunk, 5, m_chunk.data(), static_cast<int>(bytes), SQLITE_STATIC);
    if (sqlite3_step(m_insertChunk) != SQLITE_DONE)
        fail("events");
    sqlite3_reset(m_insertChunk);
    ++m_runChunks;
    m_chunkEvents = 0;
}

void SessionWriter::addObserved(const ObservedTrace& trace) {
    const auto step = [&](sqlite3_stmt* statement, const char* what) {
        if (sqlite3_step(statement) != SQLITE_DONE)
            fail(what);
        sqlite3_reset(statement);
    };
    std::string processes;
    for (const std::uint32_t pid : trace.processes)
        processes.append(processes.empty() ? "" : " ").append(std::to_string(pid));
    sqlite3_stmt* facts = prepare("INSERT INTO observed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    sqlite3_bind_int64(facts, 1, m_run);
    bindText(facts, 2, traceFormatName(trace.format));
    bindText(facts, 3, trace.relation);
    sqlite3_bind_int(facts, 4, trace.hasTimes ? 1 : 0);
    sqlite3_bind_int(facts, 5, trace.hasDurations ? 1 : 0);
    sqlite3_bind_int64(facts, 6, static_cast<sqlite3_int64>(trace.lines));
    sqlite3_bind_int64(facts, 7, static_cast<sqlite3_int64>(trace.failedReads));
    sqlite3_bind_int64(facts, 8, static_cast<sqlite3_int64>(trace.unalignedReads));
    sqlite3_bind_int64(facts, 9, static_cast<sqlite3_int64>(trace.unmatchedResumes));
    sqlite3_bind_int64(facts, 10, static_cast<sqlite3_int64>(trace.uringEnters));
    bindText(facts, 11, processes);
    step(facts, "observed");
    sqlite3_stmt* read = prepare("INSERT INTO observed_reads VALUES (?, ?, ?, ?, ?, ?, ?)");
    std::int64_t index = 0;
    for (const ObservedRead& r : trace.reads) {
        sqlite3_bind_int64(read, 1, m_run);
        sqlite3_bind_int64(read, 2, index++);
        sqlite3_bind_int64(read, 3, r.startNs);
        sqlite3_bind_int64(read, 4, r.durationNs);
        sqlite3_bind_int64(read, 5, r.block);
        sqlite3_bind_int64(read, 6, r.nblocks);
        sqlite3_bind_int64(read, 7, r.process);
        step(read, "observed_reads");
    }
    sqlite3_stmt* wait = prepare("INSERT INTO observed_waits VALUES (?, ?, ?, ?)");
    index = 0;
    for (const ObservedWait& w : trace.waits) {
        sqlite3_bind_int64(wait, 1, m_run);
        sqlite3_bind_int64(wait, 2, index++);
        sqlite3_bind_int64(wait, 3, w.timeNs);
        sqlite3_bind_int64(wait, 4, w.read);
        step(wait, "observed_waits");
    }
    sqlite3_stmt* file = prepare("INSERT INTO observed_files VALUES (?, ?, ?, ?, ?)");
    index = 0;
    for (const TracedFile& f : trace.files) {
        sqlite3_bind_int64(file, 1, m_run);
        sqlite3_bind_int64(file, 2, index++);
        bindText(file, 3, f.name);
        sqlite3_bind_int64(file, 4, static_cast<sqlite3_int64>(f.reads));
        sqlite3_bind_int64(file, 5, static_cast<sqlite3_int64>(f.bytes));
        step(file, "observed_files");
    }
}

void SessionWriter::endRun(const NameValues& summary, const std::string& summaryJson) {
    flushChunk();
    sqlite3_stmt* field = prepare("INSERT OR REPLACE INTO summary VALUES (?, ?, ?)");
    for (const auto& [name, value] : summary) {
        sqlite3_bind_int64(field, 1, m_run);
        bindText(field, 2, name);
        bindText(field, 3, value);
        if (sqlite3_step(field) != SQLITE_DONE)
            fail("summary");
        sqlite3_reset(field);
    }
    sqlite3_stmt* counts =
        prepare("UPDATE runs SET events = ?, positions = ?, reads = ?, summary_json = ? WHERE run = ?");
    sqlite3_bind_int64(counts, 1, static_cast<sqlite3_int64>(m_current.events));
    sqlite3_bind_int64(counts, 2, static_cast<sqlite3_int64>(m_current.positions));
    sqlite3_bind_int64(counts, 3, static_cast<sqlite3_int64>(m_current.reads));
    bindText(counts, 4, summaryJson);
    sqlite3_bind_int64(counts, 5, m_run);
    if (sqlite3_step(counts) != SQLITE_DONE)
        fail("runs");
}

void SessionWriter::commit() {
    if (m_committed)
        return;
    exec("COMMIT");
    for (sqlite3_stmt* statement : m_statements)
        sqlite3_finalize(statement);
    m_statements.clear();
    if (sqlite3_close(m_db) != SQLITE_OK)
        fail("close");
    m_db = nullptr;
    const auto ioFail = [&](const char* what) {
        throw IoError(joined({"cannot write session '", m_path, "': ", what, ": ", std::strerror(errno)}));
    };
    // fsync before the rename, so a crash leaves the old file or the whole new one.
    const int fd = ::open(m_temp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        if (fd >= 0)
            ::close(fd);
        ioFail("sync");
    }
    unmarkTempFile(fd);
    ::close(fd);
    if (::rename(m_temp.c_str(), m_target.c_str()) != 0)
        ioFail("rename");
    m_committed = true;
}

// ---- reading ----

SessionReader::SessionReader(std::string path) : m_path(std::move(path)) {
    try {
        load();
    } catch (...) {
        sqlite3_close(m_db);
        throw;
    }
}

void SessionReader::load() {
    const auto refuse = [&](const std::string& why) {
        return InputError(joined({"session '", m_path, "': ", why}));
    };
    struct stat st {};
    if (::stat(m_path.c_str(), &st) != 0)
        throw refuse(std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw refuse("not a regular file");
    // Probe the header ourselves: SQLite would call any file "not a database" only at the first query.
    {
        char header[16] = {};
        const int fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            throw refuse(std::strerror(errno));
        const ssize_t n = ::read(fd, header, sizeof header);
        ::close(fd);
        if (n != 16 || std::memcmp(header, "SQLite format 3", 16) != 0)
            throw refuse("not a Lookahead session (not an SQLite database); open a .lookahead file "
                         "saved by Lookahead");
    }
    // immutable=1: no locks, no journal, no -shm: the file is only ever read.
    const std::string uri = uriPath(m_path) + "?immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK)
        damaged(m_db ? sqlite3_errmsg(m_db) : "out of memory");
    const auto scalar = [&](const char* sql) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(m_db, sql, -1, &statement, nullptr) != SQLITE_OK)
            damaged(sqlite3_errmsg(m_db));
        const int rc = sqlite3_step(statement);
        const std::int64_t value = rc == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0;
        sqlite3_finalize(statement);
        if (rc != SQLITE_ROW)
            damaged(sqlite3_errmsg(m_db));
        return value;
    };
    const std::int64_t tables = scalar(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('meta', 'runs', 'events')");
    if (scalar("PRAGMA application_id") != kSessionApplicationId || tables < 1)
        throw refuse("an SQLite database but not a Lookahead session (no 'meta' table); open a .lookahead "
                     "file saved by Lookahead");
    const auto rows = [&](const char* sql, const std::function<void(sqlite3_stmt*)>& row) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(m_db, sql, -1, &statement, nullptr) != SQLITE_OK)
            damaged(sqlite3_errmsg(m_db));
        int rc = 0;
        while ((rc = sqlite3_step(statement)) == SQLITE_ROW)
            row(statement);
        sqlite3_finalize(statement);
        if (rc != SQLITE_DONE)
            damaged(sqlite3_errmsg(m_db));
    };
    rows("SELECT key, value FROM meta",
         [&](sqlite3_stmt* s) { m_meta.emplace_back(columnText(s, 0), columnText(s, 1)); });
    const std::int64_t version = scalar("PRAGMA user_version");
    if (version > kSessionFormatVersion ||
        std::strtol(meta("format_version").c_str(), nullptr, 10) > kSessionFormatVersion)
        throw refuse(joined({"made by Lookahead ", meta("lookahead_version"), " (session format ",
                             std::to_string(version), "); this is Lookahead ", LOOKAHEAD_VERSION,
                             ", which reads format ", std::to_string(kSessionFormatVersion),
                             ": open it with a newer Lookahead"}));
    if (tables != 3 || meta("format") != "lookahead.session")
        damaged("its tables are incomplete");
    rows("SELECT key, value FROM provenance",
         [&](sqlite3_stmt* s) { m_provenance.emplace_back(columnText(s, 0), columnText(s, 1)); });
    rows("SELECT run, label, policy, observed, trace_path, max_pinned, io_combine_limit, collapse_window, "
         "events, positions, reads, summary_json FROM runs ORDER BY run",
         [&](sqlite3_stmt* s) {
             if (sqlite3_column_int64(s, 0) != static_cast<std::int64_t>(m_runs.size()))
                 damaged("its runs are not numbered 0, 1, ...");
             SessionRun run;
             run.label = columnText(s, 1);
             run.policy = columnText(s, 2);
             run.observed = sqlite3_column_int(s, 3) != 0;
             run.tracePath = columnText(s, 4);
             run.maxPinned = sqlite3_column_int(s, 5);
             run.ioCombineLimit = sqlite3_column_int(s, 6);
             run.collapseWindow = sqlite3_column_int(s, 7);
             run.events = static_cast<std::uint64_t>(sqlite3_column_int64(s, 8));
             run.positions = static_cast<std::uint64_t>(sqlite3_column_int64(s, 9));
             run.reads = static_cast<std::uint64_t>(sqlite3_column_int64(s, 10));
             run.summaryJson = columnText(s, 11);
             m_runs.push_back(std::move(run));
         });
    rows("SELECT run, name, value FROM options ORDER BY run, rowid", [&](sqlite3_stmt* s) {
        const auto run = static_cast<std::size_t>(sqlite3_column_int64(s, 0));
        if (run < m_runs.size())
            m_runs[run].options.emplace_back(columnText(s, 1), columnText(s, 2));
    });
    rows("SELECT run, name, value FROM summary ORDER BY run, rowid", [&](sqlite3_stmt* s) {
        const auto run = static_cast<std::size_t>(sqlite3_column_int64(s, 0));
        if (run < m_runs.size())
            m_runs[run].summary.emplace_back(columnText(s, 1), columnText(s, 2));
    });
}

SessionReader::~SessionReader() {
    sqlite3_close(m_db);
}

void SessionReader::damaged(const std::string& why) const {
    throw InputError(
        joined({"session '", m_path, "' is damaged (truncated or corrupt: ", why, "); save the run again"}));
}

std::string SessionReader::meta(const std::string& key) const {
    for (const auto& [name, value] : m_meta)
        if (name == key)
            return value;
    return {};
}

void SessionReader::readEvents(std::size_t run,
                               const std::function<void(std::span<const Event>)>& sink) const {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(m_db, "SELECT chunk, count, hash, data FROM events WHERE run = ? ORDER BY chunk",
                           -1, &statement, nullptr) != SQLITE_OK)
        damaged(sqlite3_errmsg(m_db));
    sqlite3_bind_int64(statement, 1, static_cast<sqlite3_int64>(run));
    std::vector<Event> batch;
    std::uint64_t events = 0;
    std::int64_t expectChunk = 0;
    int rc = 0;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
        const std::int64_t count = sqlite3_column_int64(statement, 1);
        const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(statement, 3));
        const int bytes = sqlite3_column_bytes(statement, 3);
        if (sqlite3_column_int64(statement, 0) != expectChunk++ || count <= 0 ||
            static_cast<std::int64_t>(bytes) != count * static_cast<std::int64_t>(kSessionEventBytes) ||
            chunkHash(data, static_cast<std::size_t>(bytes)) != sqlite3_column_int64(statement, 2)) {
            sqlite3_finalize(statement);
            damaged(joined({"run ", std::to_string(run), "'s events are cut, altered or out of order"}));
        }
        batch.resize(static_cast<std::size_t>(count));
        for (std::size_t i = 0; i < batch.size(); ++i)
            batch[i] = decodeSessionEvent(data + i * kSessionEventBytes);
        events += batch.size();
        sink(batch);
    }
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE)
        damaged(sqlite3_errmsg(m_db));
    if (run < m_runs.size() && events != m_runs[run].events)
        damaged(joined({"run ", std::to_string(run), " has ", std::to_string(events), " of its ",
                        std::to_string(m_runs[run].events), " events"}));
}

std::optional<ObservedTrace> SessionReader::observed(std::size_t run) const {
    const auto rows = [&](const char* sql, const std::function<void(sqlite3_stmt*)>& row) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(m_db, sql, -1, &statement, nullptr) != SQLITE_OK)
            damaged(sqlite3_errmsg(m_db));
        sqlite3_bind_int64(statement, 1, static_cast<sqlite3_int64>(run));
        int rc = 0;
        while ((rc = sqlite3_step(statement)) == SQLITE_ROW)
            row(statement);
        sqlite3_finalize(statement);
        if (rc != SQLITE_DONE)
            damaged(sqlite3_errmsg(m_db));
    };
    std::optional<ObservedTrace> trace;
    rows("SELECT format, relation, has_times, has_durations, lines, failed_reads, unaligned_reads, "
         "unmatched_resumes, uring_enters, processes FROM observed WHERE run = ?",
         [&](sqlite3_stmt* s) {
             ObservedTrace t;
             const std::string format = columnText(s, 0);
             for (const TraceFormat f : {TraceFormat::Strace, TraceFormat::Perf, TraceFormat::LookaheadCsv})
                 if (format == traceFormatName(f))
                     t.format = f;
             t.relation = columnText(s, 1);
             t.hasTimes = sqlite3_column_int(s, 2) != 0;
             t.hasDurations = sqlite3_column_int(s, 3) != 0;
             t.lines = static_cast<std::uint64_t>(sqlite3_column_int64(s, 4));
             t.failedReads = static_cast<std::uint64_t>(sqlite3_column_int64(s, 5));
             t.unalignedReads = static_cast<std::uint64_t>(sqlite3_column_int64(s, 6));
             t.unmatchedResumes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 7));
             t.uringEnters = static_cast<std::uint64_t>(sqlite3_column_int64(s, 8));
             const std::string pids = columnText(s, 9);
             for (std::size_t at = 0; at < pids.size();) {
                 std::size_t end = pids.find(' ', at);
                 if (end == std::string::npos)
                     end = pids.size();
                 t.processes.push_back(static_cast<std::uint32_t>(
                     std::strtoul(pids.substr(at, end - at).c_str(), nullptr, 10)));
                 at = end + 1;
             }
             trace = std::move(t);
         });
    if (!trace)
        return trace;
    rows("SELECT start_ns, duration_ns, block, nblocks, process FROM observed_reads WHERE run = ? ORDER BY "
         "read",
         [&](sqlite3_stmt* s) {
             trace->reads.push_back({sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
                                     static_cast<std::uint32_t>(sqlite3_column_int64(s, 2)),
                                     static_cast<std::uint32_t>(sqlite3_column_int64(s, 3)),
                                     static_cast<std::uint32_t>(sqlite3_column_int64(s, 4))});
         });
    rows("SELECT time_ns, read FROM observed_waits WHERE run = ? ORDER BY wait", [&](sqlite3_stmt* s) {
        trace->waits.push_back(
            {sqlite3_column_int64(s, 0), static_cast<std::uint32_t>(sqlite3_column_int64(s, 1))});
    });
    rows("SELECT name, reads, bytes FROM observed_files WHERE run = ? ORDER BY file", [&](sqlite3_stmt* s) {
        trace->files.push_back({columnText(s, 0), static_cast<std::uint64_t>(sqlite3_column_int64(s, 1)),
                                static_cast<std::uint64_t>(sqlite3_column_int64(s, 2))});
    });
    return trace;
}

} // namespace la

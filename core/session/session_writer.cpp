// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_file.h"

#include "files/input_file.h"
#include "files/protected_symlinks.h"
#include "files/temp_file.h"
#include "io/scan_file.h"
#include "io_backend.h"
#include "message_text.h"
#include "session/session_schema.h"

#include <concepts>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace la {

namespace {

bool viewed(EventKind kind) {
    return kind == EventKind::Consumed || kind == EventKind::ReadStarted || kind == EventKind::EndOfStream ||
           kind == EventKind::Reset || kind == EventKind::DeviceReadStarted ||
           kind == EventKind::DeviceReadCompleted;
}

std::string randomHex() {
    unsigned long long value = 0;
    if (::getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value))
        value = static_cast<unsigned long long>(::getpid()) * 0x9E3779B97F4A7C15ULL;
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", value);
    return text;
}

} // namespace

SessionWriter::SessionWriter(std::string path) : m_path(std::move(path)), m_target(m_path) {
    // A constructor that throws runs no destructor: what was opened is let go here.
    try {
        create();
    } catch (const IoError& error) {
        // Nothing was written yet (a full disk at the start, say): the path cannot be written at all.
        release();
        throw InputError(error.what());
    } catch (...) {
        release();
        throw;
    }
}

namespace {

InputError cannotWrite(const std::string& path, const std::string& why) {
    return InputError(joined({"cannot write session '", path, "': ", why}));
}

} // namespace

void SessionWriter::create() {
    if (m_path.empty())
        throw InputError("the session needs a file name");
    createTempFile(resolveTarget());
    openDatabase();
    exec("BEGIN"); // every statement of the save, up to commit()
    createTables();
    m_insertChunk = prepare("INSERT INTO events(run, chunk, count, hash, data) VALUES (?, ?, ?, ?, ?)");
    setMeta("format", "lookahead.session");
    setMeta("format_version", std::to_string(kSessionFormatVersion));
    setMeta("lookahead_version", LOOKAHEAD_VERSION);
    m_chunk.resize(std::size_t(kChunkEvents) * kSessionEventBytes);
}

mode_t SessionWriter::resolveTarget() {
    if (const std::string planted = foreignSymlink(m_path); !planted.empty())
        throw cannotWrite(m_path, planted);
    struct stat st {};
    mode_t mode = 0644;
    if (::stat(m_path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw cannotWrite(m_path, "it is a directory; give a file name");
        if (!S_ISREG(st.st_mode))
            throw cannotWrite(m_path,
                              "a session is a database and needs a regular file, not a device or pipe");
        std::error_code error;
        const auto resolved = std::filesystem::canonical(m_path, error);
        if (!error)
            m_target = resolved.string();
        mode = st.st_mode & 07777;
    }
    return mode;
}

void SessionWriter::createTempFile(mode_t mode) {
    const std::filesystem::path target(m_target);
    const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
    const std::string name = target.filename().string();
    removeStaleTempFiles(dir.string(), name);
    m_temp = (dir / joined({".", name, ".", std::to_string(::getpid()), ".", randomHex(), ".tmp"})).string();
    const int fd = ::open(m_temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        const int error = errno;
        m_temp.clear(); // not ours to remove
        throw cannotWrite(m_path, joined({std::strerror(error), " (in directory '", dir.string(), "')"}));
    }
    markTempFile(fd, m_temp);
    ::fchmod(fd, mode);
    ::close(fd);
}

void SessionWriter::openDatabase() {
    if (sqlite3_open_v2(m_temp.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
        throw cannotWrite(m_path, m_db ? sqlite3_errmsg(m_db) : "out of memory");
    }
    // Nothing to roll back to: a failed save is thrown away whole, so no journal and no syncs
    // until commit() (which syncs the file once before the rename).
    exec("PRAGMA page_size = 65536");
    exec("PRAGMA journal_mode = OFF");
    exec("PRAGMA synchronous = OFF");
    exec("PRAGMA locking_mode = EXCLUSIVE");
    exec(joined({"PRAGMA application_id = ", std::to_string(kSessionApplicationId)}).c_str());
    exec(joined({"PRAGMA user_version = ", std::to_string(kSessionFormatVersion)}).c_str());
}

void SessionWriter::createTables() {
    for (const char* statement : sessionTableStatements())
        exec(statement);
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

void SessionWriter::fail(const std::string& what) {
    if (m_failure.empty()) {
        // A full disk or a failed write is the file system's error: say it as the system does, not
        // as what SQLite makes of it afterwards (a failed write rolls the transaction back, tables
        // and all, and the next statement would report a missing table).
        const int code = m_db ? sqlite3_errcode(m_db) & 0xff : SQLITE_ERROR;
        const int system = m_db ? sqlite3_system_errno(m_db) : 0;
        if (code == SQLITE_FULL || (code == SQLITE_IOERR && system != 0))
            m_failure = joined({"cannot write session '", m_path,
                                "': ", std::strerror(code == SQLITE_FULL && system == 0 ? ENOSPC : system)});
        else
            m_failure = joined({"cannot write session '", m_path, "': ", what, ": ",
                                m_db ? sqlite3_errmsg(m_db) : "no database"});
    }
    throw IoError(m_failure);
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

// `text` within the `limit` bytes a reader takes (a very long query on the command line): cut on a
// character's boundary, saying how much was left out, so that the file stays one Lookahead opens.
std::string fitted(const std::string& text, int limit) {
    if (text.size() <= std::size_t(limit))
        return text;
    std::size_t keep = std::size_t(limit) - 64;
    while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80)
        --keep;
    return text.substr(0, keep) + "… [" + std::to_string(text.size() - keep) + " bytes more not kept]";
}

void bindValue(sqlite3_stmt* statement, int column, const std::string& text) {
    bindText(statement, column, text);
}

template <std::integral T> void bindValue(sqlite3_stmt* statement, int column, T value) {
    sqlite3_bind_int64(statement, column, static_cast<sqlite3_int64>(value));
}

// Binds `values` to the statement's parameters in order, runs it and resets it for the next row.
// Returns false if the row could not be stored.
template <typename... Values> bool insertRow(sqlite3_stmt* statement, const Values&... values) {
    int column = 0;
    (bindValue(statement, ++column, values), ...);
    const bool stored = sqlite3_step(statement) == SQLITE_DONE;
    sqlite3_reset(statement);
    return stored;
}

} // namespace

void SessionWriter::setMeta(const std::string& key, const std::string& value) {
    if (!m_failure.empty())
        return; // commit() reports the first failure
    sqlite3_stmt* statement = prepare("INSERT OR REPLACE INTO meta VALUES (?, ?)");
    bindText(statement, 1, key);
    bindText(statement, 2, value);
    if (sqlite3_step(statement) != SQLITE_DONE)
        fail("meta");
}

void SessionWriter::setProvenance(const NameValues& provenance) {
    if (!m_failure.empty())
        return;
    sqlite3_stmt* statement = prepare("INSERT OR REPLACE INTO provenance VALUES (?, ?)");
    for (const auto& [key, value] : provenance) {
        bindText(statement, 1, key);
        bindText(statement, 2, fitted(value, kMaxFactBytes));
        if (sqlite3_step(statement) != SQLITE_DONE)
            fail("provenance");
        sqlite3_reset(statement);
    }
}

void SessionWriter::beginRun(const SessionRun& run) {
    if (!m_failure.empty())
        return;
    ++m_run;
    m_runChunks = 0;
    m_current = run;
    m_current.events = m_current.positions = m_current.reads = 0;
    sqlite3_stmt* statement =
        prepare("INSERT INTO runs(run, label, policy, observed, trace_path, max_pinned, io_combine_limit, "
                "collapse_window) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    sqlite3_bind_int64(statement, 1, m_run);
    bindText(statement, 2, sessionLabel(run.label));
    bindText(statement, 3, run.policy);
    sqlite3_bind_int(statement, 4, run.observed ? 1 : 0);
    bindText(statement, 5, run.tracePath);
    sqlite3_bind_int(statement, 6, run.maxPinned);
    sqlite3_bind_int(statement, 7, run.ioCombineLimit);
    sqlite3_bind_int(statement, 8, run.collapseWindow);
    if (sqlite3_step(statement) != SQLITE_DONE)
        fail("runs");
    sqlite3_stmt* option = prepare("INSERT OR REPLACE INTO options VALUES (?, ?, ?)");
    for (const auto& [name, value] : run.options)
        if (!insertRow(option, m_run, name, fitted(value, kSessionTextBytes)))
            fail("options");
}

void SessionWriter::onEvents(std::span<const Event> batch) {
    if (!m_failure.empty())
        throw IoError(m_failure); // the run that feeds a broken save ends, as with a trace CSV
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
    if (!m_failure.empty())
        return;
    std::string processes;
    for (const std::uint32_t pid : trace.processes)
        processes.append(processes.empty() ? "" : " ").append(std::to_string(pid));
    if (!insertRow(prepare("INSERT INTO observed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"), m_run,
                   std::string(traceFormatName(trace.format)), trace.relation, trace.hasTimes,
                   trace.hasDurations, trace.lines, trace.failedReads, trace.unalignedReads,
                   trace.unmatchedResumes, trace.uringEnters, processes))
        fail("observed");
    sqlite3_stmt* read = prepare("INSERT INTO observed_reads VALUES (?, ?, ?, ?, ?, ?, ?)");
    std::int64_t index = 0;
    for (const ObservedRead& r : trace.reads)
        if (!insertRow(read, m_run, index++, r.startNs, r.durationNs, r.block, r.nblocks, r.process))
            fail("observed_reads");
    sqlite3_stmt* wait = prepare("INSERT INTO observed_waits VALUES (?, ?, ?, ?)");
    index = 0;
    for (const ObservedWait& w : trace.waits)
        if (!insertRow(wait, m_run, index++, w.timeNs, w.read))
            fail("observed_waits");
    sqlite3_stmt* file = prepare("INSERT INTO observed_files VALUES (?, ?, ?, ?, ?)");
    index = 0;
    for (const TracedFile& f : trace.files)
        if (!insertRow(file, m_run, index++, f.name, f.reads, f.bytes))
            fail("observed_files");
}

bool SessionWriter::addRunFile(const std::string& role, const std::string& path) {
    if (!m_failure.empty())
        return false;
    if (m_keptFiles.contains({role, path}))
        return true;
    InputFile input;
    try {
        input = openInputFile(path, role);
    } catch (const InputError&) {
        return false; // gone since the run read it: the session keeps its path alone
    }
    sqlite3_stmt* insert = prepare("INSERT INTO run_files VALUES (?, ?, ?, ?, ?)");
    const auto discard = [&] {
        sqlite3_stmt* remove = prepare("DELETE FROM run_files WHERE run = ? AND role = ?");
        if (!insertRow(remove, m_run, role))
            fail("run_files");
        return false;
    };
    std::vector<unsigned char> chunk(kRunFileChunkBytes);
    std::uint64_t total = 0;
    for (std::int64_t index = 0;; ++index) {
        const std::int64_t got =
            readFully(input.fd.get(), reinterpret_cast<std::byte*>(chunk.data()), chunk.size(), total);
        if (got < 0)
            return discard();
        const auto filled = static_cast<std::size_t>(got);
        total += filled;
        if (total > kMaxRunFileBytes)
            return discard();
        if (filled == 0 && index > 0)
            break;
        const std::span<const unsigned char> bytes(chunk.data(), filled);
        sqlite3_bind_int64(insert, 1, m_run);
        bindText(insert, 2, role);
        sqlite3_bind_int64(insert, 3, index);
        sqlite3_bind_int64(insert, 4, runFileChunkHash(bytes));
        sqlite3_bind_blob64(insert, 5, bytes.data(), bytes.size(), SQLITE_STATIC);
        const bool stored = sqlite3_step(insert) == SQLITE_DONE;
        sqlite3_reset(insert);
        if (!stored)
            fail("run_files");
        if (filled < chunk.size())
            break;
    }
    m_keptFiles.emplace(role, path);
    return true;
}

void SessionWriter::endRun(const NameValues& summary, const std::string& summaryJson) {
    if (!m_failure.empty())
        return;
    flushChunk();
    sqlite3_stmt* field = prepare("INSERT OR REPLACE INTO summary VALUES (?, ?, ?)");
    for (const auto& [name, value] : summary)
        if (!insertRow(field, m_run, name, fitted(value, kSessionTextBytes)))
            fail("summary");
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
    if (!m_failure.empty())
        throw IoError(m_failure);
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

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"
#include "files/unique_fd.h"
#include "input_error.h"
#include "observed/observed_trace.h"

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace la {

// The session file format (docs/session-format.md): an SQLite database whose user_version and meta
// table say which format wrote it. A reader refuses a newer format instead of guessing at it.
inline constexpr int kSessionFormatVersion = 1;
// PRAGMA application_id: "LkHd", so `file` and our reader tell a session from another SQLite file.
inline constexpr std::int32_t kSessionApplicationId = 0x4C6B4864;

using NameValues = std::vector<std::pair<std::string, std::string>>;

// A run's label as a session keeps it: at most this many characters, longer ones cut with "…",
// when written and when read (a crafted 10 MB label would otherwise be laid out in every caption).
inline constexpr std::size_t kSessionLabelChars = 200;
std::string sessionLabel(std::string_view label);

// Names, paths and summary texts in a session (a path is at most PATH_MAX, a message one line):
// what is longer was not written by Lookahead and would only bloat every caption it is shown in.
inline constexpr int kSessionTextBytes = 4096;
// Options and summary fields of one run: the tables name a few hundred at most.
inline constexpr std::int64_t kSessionFieldsPerRun = 4096;

// A run's entry of the summary JSON as a session keeps it: the run's figures and each repeat's
// summary (at most --repeat's 100, each of fields of at most kSessionTextBytes, in practice a few
// kB). Larger is not a session Lookahead wrote, and is refused before it is read.
inline constexpr std::uint64_t kMaxSummaryJsonBytes = std::uint64_t{8} << 20;

// A file a modelled run read (its block list, its prewarm list) as a session keeps it, so that the
// run can run again when the file is gone (a recording's work files are): in chunks of
// kRunFileChunkBytes, at most kMaxRunFileBytes in all (200 million visits of a nine-digit block).
inline constexpr std::size_t kRunFileChunkBytes = std::size_t{1} << 20;
inline constexpr std::uint64_t kMaxRunFileBytes = std::uint64_t{2} << 30;

// The one-line error for a session that is not what Lookahead writes: names the file and the fault.
InputError sessionDamaged(const std::string& path, std::string_view why);

// One run as a session stores it, apart from its events.
struct SessionRun {
    std::string label;
    std::string policy;
    bool observed = false; // an imported trace's reads, not a modelled stream
    std::string tracePath; // the imported trace, for an observed run
    int maxPinned = 0;     // the view's reference lines and collapse rule (RunLimits)
    int ioCombineLimit = 0;
    int collapseWindow = 32;
    NameValues options;      // every option of the option table: name, value ("" = unset)
    NameValues summary;      // every field of the run's summary, exactly (session_summary.h)
    std::string summaryJson; // the run's entry of the summary JSON, for people and scripts
    std::uint64_t events = 0;
    std::uint64_t positions = 0;
    std::uint64_t reads = 0;
};

// Writes a session: every statement inside one transaction, to a temporary file in the target's
// directory that replaces `path` only on commit(). A writer destroyed without commit() removes its
// temporary file; a process killed mid-save leaves the old file intact and a ".NAME.PID.HEX.tmp"
// file that the next save to the same directory removes. Errors throw IoError naming `path`;
// a path that cannot be written at all throws InputError.
class SessionWriter final : public EventSink {
public:
    explicit SessionWriter(std::string path);
    ~SessionWriter() override;
    SessionWriter(const SessionWriter&) = delete;
    SessionWriter& operator=(const SessionWriter&) = delete;

    void setMeta(const std::string& key, const std::string& value);
    void setProvenance(const NameValues& provenance);
    // Starts run `run.label`; the events that follow belong to it until endRun().
    void beginRun(const SessionRun& run);
    // Keeps the viewed kinds (Consumed, ReadStarted, EndOfStream, DeviceRead*), ignores the rest.
    void onEvents(std::span<const Event> batch) override;
    // An observed run's imported trace: its reads, waits, files and facts.
    void addObserved(const ObservedTrace& trace);
    // Keeps the file at `path` as the current run's `role` ("blocks", "prewarm"), byte for byte, once
    // a session: a path an earlier run kept is not kept again (the reader finds it by that run's
    // option). Returns false, keeping nothing of it, where it cannot be read whole or is over
    // kMaxRunFileBytes: the run is saved all the same, and runs again only while the file is there.
    bool addRunFile(const std::string& role, const std::string& path);
    // Stores the run's summary (known once it has ended) and its event counts.
    void endRun(const NameValues& summary, const std::string& summaryJson);
    // Ends the transaction, syncs and puts the file in place.
    void commit();

    const std::string& path() const { return m_path; }

private:
    void create();
    // The parts of create(): the file a save replaces (a symlink's target) and the permissions it
    // keeps; the temporary file written in its place; the database opened on it; the format's tables.
    mode_t resolveTarget();
    void createTempFile(mode_t mode);
    void openDatabase();
    void createTables();
    void release();
    void flushChunk();
    // Throws IoError naming the file; the first failure is kept: after it the writer writes nothing
    // more (SQLite has rolled back), onEvents() and commit() throw it again, the rest do nothing.
    [[noreturn]] void fail(const std::string& what);
    void exec(const char* sql);
    sqlite3_stmt* prepare(const char* sql);

    std::string m_path;   // as given, for messages
    std::string m_target; // the file replaced on commit (a symlink's target)
    std::string m_temp;
    sqlite3* m_db = nullptr;
    std::vector<sqlite3_stmt*> m_statements;
    sqlite3_stmt* m_insertChunk = nullptr;

    std::vector<unsigned char> m_chunk;
    std::uint32_t m_chunkEvents = 0;
    std::int64_t m_run = -1;
    std::uint64_t m_runChunks = 0;
    SessionRun m_current;
    std::set<std::pair<std::string, std::string>> m_keptFiles; // role and path, for addRunFile
    bool m_committed = false;
    std::string m_failure;
};

// A session opened read-only and immutable: reading never writes to it, not even a lock or a journal.
// Every problem throws InputError with one line naming the file and what to do. A session is
// untrusted input (people open files others send them): every index, count, range and time read is
// checked against the rest of the file before it is used (docs/session-format.md, "Damaged files").
class SessionReader {
public:
    explicit SessionReader(std::string path);
    ~SessionReader();
    SessionReader(const SessionReader&) = delete;
    SessionReader& operator=(const SessionReader&) = delete;

    const std::string& path() const { return m_path; }
    // meta's value for `key`, "" if absent.
    std::string meta(const std::string& key) const;
    const NameValues& provenance() const { return m_provenance; }
    const std::vector<SessionRun>& runs() const { return m_runs; }

    // Hands run `run`'s stored events back in order, in batches. Throws InputError if they are damaged.
    void readEvents(std::size_t run, const std::function<void(std::span<const Event>)>& sink) const;
    // Run `run`'s imported trace as addObserved() stored it; empty if it has none.
    std::optional<ObservedTrace> observed(std::size_t run) const;
    // Hands run `run`'s kept file `role` (addRunFile) to `sink` chunk by chunk, in order, for as long
    // as `sink` returns true; false where the session keeps none (an older session, or a file that
    // was not there when it was saved). Throws InputError if the chunks are damaged (missing,
    // reordered, too large, or their bytes changed), before handing on any chunk after the damage.
    bool readRunFile(std::size_t run, const std::string& role,
                     const std::function<bool(std::span<const unsigned char>)>& sink) const;
    // The bytes of every kept file, as stored (unchecked: a measure of the work, for progress).
    std::uint64_t runFileBytes() const;

private:
    void load();
    // The parts of load(): the file is an SQLite database; opened; its meta and provenance, whose
    // format it must be; its runs; their options and summaries.
    void checkFile();
    void openDatabase();
    void readFacts();
    void readRuns();
    void readRunFields();
    // Run `which`'s summary JSON, in row `rowid` of runs: refused unread if it is too large.
    std::string summaryJson(std::int64_t rowid, const std::string& which) const;
    // The first column of the first row of `sql`.
    std::int64_t scalar(const char* sql) const;
    bool keepsRunFiles() const; // a session saved before runs kept their files has no run_files
    // Runs `sql`, with `run` bound to its one parameter if given, and hands each row to `row`.
    void forEachRow(const char* sql, std::optional<std::size_t> run,
                    const std::function<void(sqlite3_stmt*)>& row) const;
    // The parts of observed(): its facts (empty if the run has none), then its reads, waits and files.
    std::optional<ObservedTrace> observedFacts(std::size_t run) const;
    void readObservedReads(std::size_t run, ObservedTrace& trace) const;
    void readObservedWaits(std::size_t run, ObservedTrace& trace) const;
    void readObservedFiles(std::size_t run, ObservedTrace& trace) const;
    // The number of events of chunk `chunk` of run `which`, checked against its row: its number, its
    // count, that it is a BLOB and its size.
    std::int64_t chunkEvents(sqlite3_stmt* row, const std::string& which, std::int64_t chunk) const;
    // Throws InputError: the file is not a session this Lookahead reads (refuse), or is damaged.
    [[noreturn]] void refuse(std::string_view why) const;
    [[noreturn]] void damaged(std::string_view why) const;
    // Column `column` of a row as a whole number in [low, high]; text, NULL or out of range is damage,
    // named by what() (built only then: rows are read by the million).
    template <class What>
    std::int64_t whole(sqlite3_stmt* row, int column, std::int64_t low, std::int64_t high,
                       const What& what) const;
    // whole() over the columns of `row`, the row of item `index` of `which` ("run 0's imported read 3"):
    // a value out of its range is named "<which>'s <item> <index>: its <name>".
    auto numberedFields(sqlite3_stmt* row, const std::string& which, const char* item,
                        std::int64_t index) const;
    // Column `column` as text of at most `limit` bytes; longer is damage.
    template <class What>
    std::string text(sqlite3_stmt* row, int column, const What& what, int limit = kSessionTextBytes) const;
    std::uint64_t m_fileBytes = 0;

    std::string m_path;
    UniqueFd m_file; // what SQLite reads, through /proc/self/fd
    sqlite3* m_db = nullptr;
    NameValues m_meta;
    NameValues m_provenance;
    std::vector<SessionRun> m_runs;
};

// Bytes per stored event (docs/session-format.md gives the layout).
inline constexpr std::size_t kSessionEventBytes = 32;
void encodeSessionEvent(const Event& event, unsigned char* out);
Event decodeSessionEvent(const unsigned char* in);

} // namespace la

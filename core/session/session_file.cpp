// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_file.h"

#include "message_text.h"
#include "session/session_schema.h"

#include <bit>
#include <cstring>

namespace la {

namespace {

static_assert(std::endian::native == std::endian::little, "events are stored little-endian, as in memory");

constexpr const char* kTables[] = {
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE provenance(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE runs(run INTEGER PRIMARY KEY, label TEXT NOT NULL, policy TEXT NOT NULL, "
    "observed INTEGER NOT NULL, trace_path TEXT NOT NULL, max_pinned INTEGER NOT NULL, "
    "io_combine_limit INTEGER NOT NULL, collapse_window INTEGER NOT NULL, events INTEGER, "
    "positions INTEGER, reads INTEGER, summary_json TEXT)",
    "CREATE TABLE options(run INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, "
    "PRIMARY KEY(run, name))",
    "CREATE TABLE summary(run INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, "
    "PRIMARY KEY(run, name))",
    "CREATE TABLE events(run INTEGER NOT NULL, chunk INTEGER NOT NULL, count INTEGER NOT NULL, "
    "hash INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(run, chunk))",
    // An observed run's imported trace: its facts, reads, waits and the files it read.
    "CREATE TABLE observed(run INTEGER PRIMARY KEY, format TEXT NOT NULL, relation TEXT NOT NULL, "
    "has_times INTEGER NOT NULL, has_durations INTEGER NOT NULL, lines INTEGER NOT NULL, "
    "failed_reads INTEGER NOT NULL, unaligned_reads INTEGER NOT NULL, "
    "unmatched_resumes INTEGER NOT NULL, uring_enters INTEGER NOT NULL, processes TEXT NOT NULL)",
    "CREATE TABLE observed_reads(run INTEGER NOT NULL, read INTEGER NOT NULL, start_ns INTEGER NOT NULL, "
    "duration_ns INTEGER NOT NULL, block INTEGER NOT NULL, nblocks INTEGER NOT NULL, "
    "process INTEGER NOT NULL, PRIMARY KEY(run, read))",
    "CREATE TABLE observed_waits(run INTEGER NOT NULL, wait INTEGER NOT NULL, time_ns INTEGER NOT NULL, "
    "read INTEGER NOT NULL, PRIMARY KEY(run, wait))",
    "CREATE TABLE observed_files(run INTEGER NOT NULL, file INTEGER NOT NULL, name TEXT NOT NULL, "
    "reads INTEGER NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY(run, file))",
    // The files a modelled run read its visits and cache state from, byte for byte (addRunFile).
    "CREATE TABLE run_files(run INTEGER NOT NULL, role TEXT NOT NULL, chunk INTEGER NOT NULL, "
    "hash INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(run, role, chunk))",
};

template <class T> void put(unsigned char* out, std::size_t at, T value) {
    std::memcpy(out + at, &value, sizeof value);
}
template <class T> T get(const unsigned char* in, std::size_t at) {
    T value;
    std::memcpy(&value, in + at, sizeof value);
    return value;
}

} // namespace

std::span<const char* const> sessionTableStatements() {
    return kTables;
}

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

std::int64_t runFileChunkHash(std::span<const unsigned char> bytes) {
    // chunkHash() takes whole 32-byte words: a file's last chunk is hashed zero-padded, its length
    // mixed in by chunkHash itself through the padded size and here through the true one.
    const std::size_t whole = bytes.size() / 32 * 32;
    unsigned char tail[32] = {};
    if (bytes.size() > whole)
        std::memcpy(tail, bytes.data() + whole, bytes.size() - whole);
    return chunkHash(bytes.data(), whole) ^
           static_cast<std::int64_t>(static_cast<std::uint64_t>(chunkHash(tail, sizeof tail)) *
                                     (bytes.size() | 1));
}

std::string sessionLabel(std::string_view label) {
    std::size_t chars = 0;
    for (std::size_t at = 0; at < label.size(); ++at) {
        // A character starts at every byte that is not a UTF-8 continuation byte.
        if ((static_cast<unsigned char>(label[at]) & 0xC0) != 0x80 && chars++ == kSessionLabelChars)
            return std::string(label.substr(0, at)).append("…");
    }
    return std::string(label);
}

InputError sessionDamaged(const std::string& path, std::string_view why) {
    return InputError(joined({"session '", path, "' is damaged or was not written by Lookahead: ", why,
                              "; ask for the session again or re-run"}));
}

void encodeSessionEvent(const Event& e, unsigned char* out) {
    put(out, 0, e.time_ns);
    put(out, 8, e.position);
    put(out, 12, e.block);
    put(out, 16, e.io_id);
    put(out, 20, static_cast<std::uint8_t>(e.kind));
    put(out, 21, e.nblocks);
    put(out, 22, e.flags);
    put(out, 23, e.stream);
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
    e.stream = in[23];
    e.in_flight = get<std::uint16_t>(in, 24);
    e.distance = get<std::uint16_t>(in, 26);
    e.combine_distance = get<std::uint16_t>(in, 28);
    e.pinned = get<std::uint16_t>(in, 30);
    return e;
}

} // namespace la

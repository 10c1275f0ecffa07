// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the session's reader and writer share of its format (docs/session-format.md): the tables,
// the chunking of events and the check of a chunk's bytes.

#include <cstddef>
#include <cstdint>
#include <span>

namespace la {

// Events per BLOB: 2 MiB, big enough that SQLite's per-row cost vanishes, small enough to stream.
inline constexpr std::uint32_t kChunkEvents = 65536;
// A meta or provenance value: the command line is the longest.
inline constexpr int kMaxFactBytes = 65536;

// The statements that create a session's tables, in order.
std::span<const char* const> sessionTableStatements();

// A check of a chunk's bytes, so that damage inside a BLOB (which SQLite does not check) is found
// rather than drawn: four independent multiply-xor lanes over 64-bit words, fast enough (several
// GB/s) to verify every chunk on open. Chunks are whole events, so a multiple of 32 bytes.
std::int64_t chunkHash(const unsigned char* data, std::size_t bytes);
// The same check for a chunk of a run's file (run_files), of any length.
std::int64_t runFileChunkHash(std::span<const unsigned char> bytes);

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_arena.h"
#include "files/unique_fd.h"
#include "io_backend.h"
#include "pending_read.h"
#include "run_clock.h"
#include "segment_path.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace la {

struct FileBackendOptions {
    std::string path;
    // A PostgreSQL relation's segment files in order, each of kBlocksPerSegment blocks but the last
    // (empty: `path` alone holds every block).
    std::vector<std::string> segments;
    std::uint64_t datasetId = 0;
    bool verify = false; // our dataset file: every page read is checked
    // Checks each page of someone else's file (a PostgreSQL heap): returns what is wrong, or empty.
    std::function<std::string(const std::byte* page, std::uint32_t block)> pageCheck;
    bool direct = true; // O_DIRECT, falling back to buffered reads if the kernel refuses it
    int maxIos = 1;     // reads in flight at most (the stream's max_ios)
    std::uint64_t maxInFlightBlocks = 1;
    std::uint32_t maxReadBlocks = 1;
    std::vector<std::string> fallbacks; // decided before the backend existed (io_uring unavailable)
    std::function<void(const std::string&)> notice;
};

// Reads a real file on a real clock. Synchronous reads (io_method=sync, PG17, PG19's fast path)
// happen inside wait() with pread, as the consumer would do them; the others go to an AsyncReads
// engine (io_uring or worker threads). Every page of our own dataset files is verified when the
// consumer gets it, so a read at a wrong offset stops the run instead of faking a plot.
class FileBackend final : public IoBackend {
public:
    // Opens the file (read-only). Throws IoError if it cannot.
    explicit FileBackend(FileBackendOptions options);
    ~FileBackend() override;
    FileBackend(const FileBackend&) = delete;
    FileBackend& operator=(const FileBackend&) = delete;

    // Without an engine every read is synchronous (io_method=sync).
    void setAsync(std::unique_ptr<AsyncReads> engine) { m_async = std::move(engine); }
    const RunClock& clock() const { return m_clock; }

    std::int64_t now() override { return m_clock.now(); }
    void start(const ReadRequest& request) override;
    ReadOutcome wait(std::uint32_t ioId) override;
    // Spins on the CPU (the consumer's cost is real), collecting completions meanwhile.
    void consume(std::int64_t ns) override;
    std::uint64_t deviceReads() const override { return m_deviceReads; }
    std::uint64_t deviceBytes() const override { return m_deviceBytes; }

    std::uint64_t pagesVerified() const { return m_pagesVerified; }
    bool direct() const { return m_useDirect; }
    // Every fallback taken, in order, joined with "; " (empty if none).
    std::string fallbackReason() const;

private:
    PendingRead& slot(std::uint64_t seq) { return m_reads[seq % m_reads.size()]; }
    PendingRead* find(std::uint32_t ioId);
    bool readNow(PendingRead& read);
    // pread through the page cache, across segment files: bytes [from, length) of `read`.
    std::int64_t readBuffered(PendingRead& read, std::uint64_t from);
    bool complete(PendingRead& read);
    void verify(const PendingRead& read);
    void retireFinished();
    void fallBack(const std::string& reason);
    std::string where(std::uint64_t block) const;

    FileBackendOptions m_options;
    RunClock m_clock;
    std::uint64_t m_segmentBlocks = kBlocksPerSegment;
    std::vector<UniqueFd> m_bufferedFds; // one per segment file
    std::vector<UniqueFd> m_directFds;   // kept open after a fallback: reads in flight may still use them
    bool m_useDirect = false;
    bool m_directWorked = false;       // a direct read succeeded: EINVAL from now on is a real error
    bool m_misalignNextDirect = false; // LOOKAHEAD_DISABLE_O_DIRECT=read
    std::vector<std::string> m_fallbacks;

    BlockArena m_arena;
    std::vector<PendingRead> m_reads; // ring of reads in start order
    std::uint64_t m_oldest = 0, m_next = 0;
    std::unique_ptr<AsyncReads> m_async; // destroyed first: it drains reads that use the arena

    std::uint64_t m_deviceReads = 0;
    std::uint64_t m_deviceBytes = 0;
    std::uint64_t m_pagesVerified = 0;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_backend.h"

#include "files/input_file.h"
#include "page_format.h"
#include "scan_file.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace la {

namespace {

// Voluntary context switches of the calling thread: they grow exactly when it sleeps, so they
// tell whether a synchronous read blocked on the device or was served from the page cache.
long voluntarySwitches() {
    rusage usage{};
    ::getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_nvcsw;
}

} // namespace

FileBackend::FileBackend(FileBackendOptions options)
    : m_options(std::move(options)), m_arena(m_options.maxInFlightBlocks, m_options.maxReadBlocks),
      m_reads(static_cast<std::size_t>(m_options.maxIos) + 1) {
    for (const std::string& reason : m_options.fallbacks)
        fallBack(reason);
    if (m_options.segments.empty())
        m_options.segments.push_back(m_options.path);
    if (m_options.segments.size() == 1)
        m_segmentBlocks = std::uint64_t{1} << 40; // one file holds every block, however many

    for (const std::string& path : m_options.segments) {
        const int buffered = openRegularFile(path, "file to scan");
        if (buffered < 0)
            throw IoError("cannot open '" + path + "': " + std::strerror(-buffered));
        m_bufferedFds.emplace_back(buffered);
    }
    if (!m_options.direct)
        return;
    const char* disable = std::getenv("LOOKAHEAD_DISABLE_O_DIRECT");
    const std::string forced = disable != nullptr ? disable : "";
    m_misalignNextDirect = forced == "read";
    const bool refuseAtOpen = !forced.empty() && forced != "0" && forced != "read";
    for (const std::string& path : m_options.segments) {
        const int direct = refuseAtOpen ? -EINVAL : openRegularFile(path, "file to scan", O_DIRECT);
        if (direct == -EINVAL) {
            m_directFds.clear();
            fallBack(
                refuseAtOpen
                    ? "O_DIRECT disabled by LOOKAHEAD_DISABLE_O_DIRECT; reading through the page cache"
                    : "the file system refused O_DIRECT (EINVAL at open); reading through the page cache");
            return;
        }
        if (direct < 0)
            throw IoError("cannot open '" + path + "' with O_DIRECT: " + std::strerror(-direct));
        m_directFds.emplace_back(direct);
    }
    m_useDirect = true;
}

FileBackend::~FileBackend() {
    m_async.reset(); // waits for reads in flight before their buffers go
}

std::string FileBackend::fallbackReason() const {
    std::string text;
    for (const std::string& reason : m_fallbacks)
        text += (text.empty() ? "" : "; ") + reason;
    return text;
}

void FileBackend::fallBack(const std::string& reason) {
    m_fallbacks.push_back(reason);
    if (m_options.notice)
        m_options.notice(reason);
}

std::string FileBackend::where(std::uint64_t block) const {
    const std::uint64_t segment =
        std::min<std::uint64_t>(block / m_segmentBlocks, m_options.segments.size() - 1);
    const std::uint64_t inFile = block - segment * m_segmentBlocks;
    std::string text = "'" + m_options.segments[segment] + "' at block " + std::to_string(inFile);
    if (inFile != block)
        text += " (relation block " + std::to_string(block) + ")";
    return text + " (offset " + std::to_string(inFile * kBlockSize) + ")";
}

void FileBackend::start(const ReadRequest& request) {
    if (m_next - m_oldest == m_reads.size())
        throw IoError("internal error: more reads started than max_ios allows");
    const std::int64_t offset = m_arena.allocate(request.nblocks);
    if (offset < 0)
        throw IoError("internal error: more blocks in flight than the stream can pin");
    PendingRead& read = slot(m_next++);
    read = PendingRead{};
    read.ioId = request.ioId;
    read.firstBlock = request.firstBlock;
    read.nblocks = request.nblocks;
    // A read never spans files in PostgreSQL (smgr splits it), but the model may combine across a
    // segment boundary; the consumer then reads each file's part itself.
    const std::uint64_t segment = request.firstBlock / m_segmentBlocks;
    const std::uint64_t inFile = request.firstBlock % m_segmentBlocks;
    read.crossesSegments = inFile + request.nblocks > m_segmentBlocks;
    read.direct = m_useDirect && !read.crossesSegments;
    read.fd = read.direct ? m_directFds[segment].get() : m_bufferedFds[segment].get();
    read.fileOffset = inFile * kBlockSize;
    read.synchronous = request.synchronous || !m_async || read.crossesSegments;
    read.arenaOffset = offset;
    read.buffer = m_arena.at(offset);
    if (read.direct && m_misalignNextDirect) {
        read.buffer += 1; // the kernel must refuse this buffer: the EINVAL-on-first-read path
        m_misalignNextDirect = false;
    }
    read.submittedNs = now();
    ++m_deviceReads;
    m_deviceBytes += read.length();
    if (!read.synchronous)
        m_async->submit(read);
    else if (request.advice)
        ::posix_fadvise(m_bufferedFds[segment].get(), static_cast<off_t>(read.offset()),
                        static_cast<off_t>(read.length()), POSIX_FADV_WILLNEED);
}

PendingRead* FileBackend::find(std::uint32_t ioId) {
    for (std::uint64_t seq = m_oldest; seq < m_next; ++seq)
        if (slot(seq).ioId == ioId && !slot(seq).finished)
            return &slot(seq);
    return nullptr;
}

bool FileBackend::readNow(PendingRead& read) {
    const long before = voluntarySwitches();
    read.result = read.crossesSegments ? readBuffered(read, 0)
                                       : readFully(read.fd, read.buffer, read.length(), read.offset());
    read.completedNs = now();
    read.done = true;
    return voluntarySwitches() > before;
}

ReadOutcome FileBackend::wait(std::uint32_t ioId) {
    PendingRead* read = find(ioId);
    if (read == nullptr)
        return {};
    const std::int64_t waitStart = now();
    ReadOutcome outcome;
    if (read->synchronous) {
        outcome.blocked = readNow(*read);
        outcome.latencyNs = read->completedNs - waitStart;
    } else {
        outcome.blocked = m_async->awaitCompletion(*read);
        outcome.latencyNs = read->completedNs - read->submittedNs;
    }
    if (complete(*read))
        outcome.blocked = true;
    if (outcome.blocked)
        outcome.waitNs = now() - waitStart;
    if (m_options.verify || m_options.pageCheck)
        verify(*read);
    read->finished = true;
    retireFinished();
    return outcome;
}

// Turns a finished read into a full buffer or an IoError. Returns true if the consumer had to
// read something itself: the rest of a short read, or a read the kernel refused with O_DIRECT.
bool FileBackend::complete(PendingRead& read) {
    bool readByConsumer = false;
    if (read.result == -EINVAL && read.direct && !m_directWorked) {
        if (m_useDirect) {
            m_useDirect = false;
            fallBack("the kernel refused an O_DIRECT read (EINVAL); reading through the page cache");
        }
        read.direct = false;
        read.fd = m_bufferedFds[read.firstBlock / m_segmentBlocks].get();
        readNow(read);
        readByConsumer = true;
    }
    if (read.result < 0)
        throw IoError("read of " + std::to_string(read.nblocks) + " block(s) from " + where(read.firstBlock) +
                      " failed: " + std::strerror(static_cast<int>(-read.result)));
    const auto got = static_cast<std::uint64_t>(read.result);
    if (got < read.length()) {
        // A read may legally return less than asked; only end of file makes it short for good. The
        // rest goes through the page cache, which, unlike O_DIRECT, takes any offset.
        const std::int64_t rest = readBuffered(read, got);
        readByConsumer = true;
        if (rest < 0)
            throw IoError("read from " + where(read.firstBlock + got / kBlockSize) +
                          " failed: " + std::strerror(static_cast<int>(-rest)));
        if (got + static_cast<std::uint64_t>(rest) < read.length()) {
            struct stat st {};
            const std::uint64_t end = read.firstBlock + (got + rest) / kBlockSize;
            const int fd =
                m_bufferedFds[std::min<std::uint64_t>(end / m_segmentBlocks, m_bufferedFds.size() - 1)].get();
            const std::string size =
                ::fstat(fd, &st) == 0 ? " (the file is now " + std::to_string(st.st_size) + " bytes)" : "";
            throw IoError("short read from " + where(read.firstBlock + (got + rest) / kBlockSize) +
                          ": the file ends there" + size + "; did it shrink during the run?");
        }
        read.result = static_cast<std::int64_t>(read.length());
    }
    if (read.direct)
        m_directWorked = true;
    return readByConsumer;
}

std::int64_t FileBackend::readBuffered(PendingRead& read, std::uint64_t from) {
    std::uint64_t done = from;
    while (done < read.length()) {
        const std::uint64_t block = read.firstBlock + done / kBlockSize;
        const std::uint64_t segment = block / m_segmentBlocks;
        if (segment >= m_bufferedFds.size())
            break; // past the last file: a short read
        const std::uint64_t inFile = (block % m_segmentBlocks) * kBlockSize + done % kBlockSize;
        const std::uint64_t want = std::min(read.length() - done, m_segmentBlocks * kBlockSize - inFile);
        const std::int64_t got = readFully(m_bufferedFds[segment].get(), read.buffer + done, want, inFile);
        if (got < 0)
            return got;
        done += static_cast<std::uint64_t>(got);
        if (static_cast<std::uint64_t>(got) < want)
            break;
    }
    return static_cast<std::int64_t>(done - from);
}

void FileBackend::verify(const PendingRead& read) {
    for (std::uint32_t i = 0; i < read.nblocks; ++i) {
        const std::uint32_t block = read.firstBlock + i;
        if (m_options.pageCheck) {
            if (const std::string problem =
                    m_options.pageCheck(read.buffer + std::uint64_t{i} * kBlockSize, block);
                !problem.empty())
                throw IoError("page check failed for " + where(block) + ": " + problem);
            continue;
        }
        const std::string problem =
            checkPage(read.buffer + std::uint64_t{i} * kBlockSize, m_options.datasetId, block);
        if (!problem.empty())
            throw IoError("page verification failed for " + where(block) + ": " + problem +
                          " (in a read of " + std::to_string(read.nblocks) + " block(s) from block " +
                          std::to_string(read.firstBlock) + "); delete the file to have it rewritten");
    }
    m_pagesVerified += read.nblocks;
}

void FileBackend::retireFinished() {
    while (m_oldest < m_next && slot(m_oldest).finished) {
        ++m_oldest;
        m_arena.releaseOldest(m_oldest < m_next ? slot(m_oldest).arenaOffset : -1);
    }
}

void FileBackend::consume(std::int64_t ns) {
    if (m_async)
        m_async->flush();
    const std::int64_t end = now() + ns;
    while (now() < end)
        if (m_async)
            m_async->poll();
}

} // namespace la

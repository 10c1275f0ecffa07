// SPDX-License-Identifier: GPL-3.0-or-later
#include "relation_files.h"

#include "message_text.h"

#include "block_size.h"
#include "input_error.h"
#include "io/scan_file.h"
#include "io/segment_path.h"
#include "page_header.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace la::pg {

namespace {

constexpr std::uint64_t kSegmentBytes = kBlocksPerSegment * kBlockSize;

FileStamp stampOf(const struct stat& st) {
    return {static_cast<std::uint64_t>(st.st_size),
            std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
}

} // namespace

FileStamp stampOf(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? stampOf(st) : FileStamp{};
}

std::string segmentPath(const std::string& first, std::uint32_t n) {
    return n == 0 ? first : first + "." + std::to_string(n);
}

SegmentedRelation::SegmentedRelation(const std::string& firstSegment, const std::string& role)
    : m_role(role) {
    if (firstSegment.empty())
        throw InputError(role + " needs a path");
    if (splitSegment(firstSegment).segment != 0)
        throw InputError(role + " '" + firstSegment +
                         "' is a later segment file; give the relation's first file (without .N)");
    for (std::uint32_t n = 0;; ++n) {
        const std::string path = segmentPath(firstSegment, n);
        struct stat st {};
        if (n > 0 && ::stat(path.c_str(), &st) != 0 && errno == ENOENT)
            break; // the relation ends with the previous segment
        // A readable regular file, opened without opening anything else (files/input_file.h).
        ScanFile file = [&] {
            try {
                return inspectScanFile(path);
            } catch (const InputError& error) {
                throw InputError(joined({role, ": ", error.what()}));
            }
        }();
        if (file.partialBytes != 0)
            throw InputError(joined(
                {role, " '", path, "' is ", std::to_string(file.bytes),
                 " bytes, not a whole number of 8192-byte blocks: truncated or not a relation file (block ",
                 std::to_string(file.blocks), " is partial)"}));
        const int fd = file.fd.get();
        m_fds.push_back(std::move(file.fd));
        if (::fstat(fd, &st) != 0)
            throw InputError(joined({role, " cannot stat '", path, "': ", std::strerror(errno)}));
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        m_segments.push_back({path, file.blocks, stampOf(st)});
        m_blocks += file.blocks;
        if (file.bytes > kSegmentBytes)
            throw InputError(
                joined({role, " '", path, "' is longer than a 1 GiB segment (", std::to_string(file.blocks),
                        " blocks; at most ", std::to_string(kBlocksPerSegment), ")"}));
        if (file.bytes < kSegmentBytes)
            break;
    }
    // A shorter segment ends the relation; a file after it means an earlier one was truncated.
    const std::string next = segmentPath(firstSegment, static_cast<std::uint32_t>(m_segments.size()));
    if (struct stat st{}; m_segments.back().blocks < kBlocksPerSegment && ::stat(next.c_str(), &st) == 0)
        throw InputError(role + " '" + m_segments.back().path + "' is " +
                         std::to_string(m_segments.back().blocks) + " blocks but '" + next +
                         "' follows it: a segment before the last must be 1 GiB (" +
                         std::to_string(kBlocksPerSegment) + " blocks); it was truncated at block " +
                         std::to_string(m_segments.back().blocks));
}

void SegmentedRelation::read(std::uint64_t block, std::byte* page) const {
    if (block >= m_blocks)
        throw InputError(m_role + " '" + path() + "': block " + std::to_string(block) +
                         " is past the end of the relation (" + std::to_string(m_blocks) + " blocks)");
    const std::uint64_t n = block / kBlocksPerSegment;
    const std::uint64_t inFile = block % kBlocksPerSegment;
    const std::int64_t got = readFully(m_fds[n].get(), page, kBlockSize, inFile * kBlockSize);
    if (got != static_cast<std::int64_t>(kBlockSize))
        throw InputError(m_role + ": cannot read " + where(block) + ": " +
                         (got < 0 ? std::string(std::strerror(static_cast<int>(-got)))
                                  : std::string("the file ends there; did it shrink?")));
}

std::string SegmentedRelation::where(std::uint64_t block) const {
    // A block past the end has no file: name the relation, never a segment that does not exist.
    if (block >= m_blocks)
        return "'" + path() + "' relation block " + std::to_string(block) +
               " (past its end: " + std::to_string(m_blocks) + " blocks in " +
               std::to_string(m_segments.size()) + " segment file" + (m_segments.size() == 1 ? "" : "s") +
               ")";
    const std::uint64_t n = block / kBlocksPerSegment;
    return pageWhere(m_segments[n].path, block % kBlocksPerSegment, block);
}

std::string SegmentedRelation::changes() const {
    std::string text;
    for (const Segment& segment : m_segments) {
        const FileStamp now = stampOf(segment.path);
        if (now == segment.stamp)
            continue;
        text.append(text.empty() ? "" : "; ").append("'").append(segment.path).append("' ");
        if (now.bytes != segment.stamp.bytes)
            text.append("changed size from ")
                .append(std::to_string(segment.stamp.bytes))
                .append(" to ")
                .append(std::to_string(now.bytes))
                .append(" bytes");
        else
            text.append("was modified");
    }
    return text;
}

} // namespace la::pg

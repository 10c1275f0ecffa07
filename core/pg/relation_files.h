// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/unique_fd.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace la::pg {

// What a file looked like when it was opened, to tell whether it changed under the scan.
struct FileStamp {
    std::uint64_t bytes = 0;
    std::int64_t mtimeNs = 0;
    bool operator==(const FileStamp&) const = default;
};

// One segment file of a relation.
struct Segment {
    std::string path;
    std::uint64_t blocks = 0;
    FileStamp stamp;
};

// A relation's segment files, "16396", "16396.1", ... of kBlocksPerSegment blocks each, found from
// the path of the first. Every file is opened O_RDONLY and never written.
class SegmentedRelation {
public:
    // Opens every segment; throws InputError naming the file if one is missing, unreadable, not a
    // regular file, not a whole number of 8 kB blocks, or (all but the last) shorter than 1 GiB.
    // `role` says what the file is for in messages ("--pg-index").
    SegmentedRelation(const std::string& firstSegment, const std::string& role);

    std::uint64_t blocks() const { return m_blocks; }
    const std::vector<Segment>& segments() const { return m_segments; }
    const std::string& path() const { return m_segments.front().path; }

    // Reads relation block `block` into `page` (8 kB); throws InputError if it cannot.
    void read(std::uint64_t block, std::byte* page) const;

    // "'FILE.1' block 5 (relation block 131077) at offset 40960"; a block past the end is named as
    // a relation block of the first file, never by a segment file that does not exist.
    std::string where(std::uint64_t block) const;

    // The segments whose size or modification time differ from when they were opened, described
    // for a message; empty if none did.
    std::string changes() const;

private:
    std::vector<Segment> m_segments;
    std::vector<UniqueFd> m_fds;
    std::uint64_t m_blocks = 0;
    std::string m_role;
};

// The size and modification time of `path` now (bytes 0 and mtime 0 if it is gone).
FileStamp stampOf(const std::string& path);

// The path of segment `n` of the relation whose first segment is `first`.
std::string segmentPath(const std::string& first, std::uint32_t n);

} // namespace la::pg

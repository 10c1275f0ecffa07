// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace la {

// Where a run of a file's bytes lies on the device its block requests go to: `length` bytes from
// byte `logical` of the file are at byte `physical` of the device (the whole disk, a partition's
// start already added).
struct FileExtent {
    std::uint64_t logical = 0;
    std::uint64_t physical = 0;
    std::uint64_t length = 0;

    bool operator==(const FileExtent&) const = default;
};

// A part of one file that a device request covered.
struct MappedPiece {
    std::uint32_t file = 0;   // the index the file was added with
    std::uint64_t offset = 0; // bytes into the file
    std::uint64_t bytes = 0;
};

// The files of interest's extents on their devices, for turning a block request (device, byte,
// length) into the parts of files it read. A request may cover several files' extents, a part of
// one, or none; files sharing blocks (reflinks) each get their piece.
class ExtentMap {
public:
    // Adds the extents of file `file` on device `device`; false (nothing added) if an extent's end
    // passes 2^64 bytes on the device or in the file.
    bool add(std::uint32_t device, std::uint32_t file, const std::vector<FileExtent>& extents);

    // The pieces of files in [start, start + bytes) of `device`, by device address; empty if the
    // range is in no file of interest (or passes 2^64).
    std::vector<MappedPiece> map(std::uint32_t device, std::uint64_t start, std::uint64_t bytes) const;

    bool empty() const { return m_extents.empty(); }

private:
    struct Entry {
        std::uint32_t device = 0;
        std::uint32_t file = 0;
        FileExtent extent;
    };

    // Sorted by (device, physical), and the furthest device end among each entry and those before
    // it on the same device: extents may overlap (reflinks), so a lookup cannot stop at the nearest.
    std::vector<Entry> m_extents;
    std::vector<std::uint64_t> m_reach;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/temp_file.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace la {

// Where the exact columns of a long run's views go once a chunk of them is full, so that the
// window's memory stays bounded at any run length: what is written sits in the page cache, not in
// the process. An unnamed file in a private directory, gone with the process. Used by one thread
// at a time.
class SpillFile {
public:
    // Creates the file in `dir`; if that fails, broken() says why and nothing is ever spilled.
    explicit SpillFile(const std::string& dir);

    // Appends `bytes` and returns their offset, or -1 when the file is (or now becomes) broken:
    // then the caller keeps the data in memory.
    std::int64_t append(const void* data, std::size_t bytes);
    // Reads back what append() wrote at `offset`; false (with broken() set) if the read failed.
    bool read(std::int64_t offset, void* data, std::size_t bytes) const;

    // Why the file stopped taking data (what is not spilled stays in memory), or empty.
    const std::string& broken() const { return m_broken; }
    std::uint64_t size() const { return m_size; }

private:
    void fail(const std::string& why) const;

    std::string m_dir;
    TempFile m_file;
    std::uint64_t m_size = 0;
    mutable std::string m_broken;
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/unique_fd.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace la {

// Reads a text file line by line through one fixed buffer, so a multi-GB trace costs the buffer and
// nothing more. A line longer than the buffer is returned cut to the buffer, flagged overlong(), and
// the rest of it is skipped. The file is read up to its size when it was opened: a trace still being
// written ends there (grew()), without the line the writer was in.
class LineReader {
public:
    // Throws InputError if the file cannot be opened or is not a regular file (files/input_file.h).
    explicit LineReader(const std::string& path, std::size_t bufferBytes = std::size_t{1} << 20);

    // The next line without its "\n" or "\r\n"; false at the end of the file. The view is valid
    // until the next call. Throws InputError if reading fails.
    bool next(std::string_view& line);
    // 1-based number of the line last returned.
    std::uint64_t lineNumber() const { return m_lineNumber; }
    bool overlong() const { return m_overlong; }
    // The last line returned had no newline after it (the file ends mid-line).
    bool unterminated() const { return m_unterminated; }
    std::uint64_t bytesConsumed() const { return m_consumed; }
    std::uint64_t size() const { return m_size; }
    // The file was longer at its end than when it was opened: it is still being written.
    bool grew() const { return m_grew; }
    // Starts again from the first line.
    void rewind();

private:
    bool fill();

    std::string m_path;
    UniqueFd m_fd;
    std::vector<char> m_buffer;
    std::size_t m_begin = 0, m_end = 0;
    bool m_eof = false;
    bool m_skipping = false; // inside the rest of an overlong line
    bool m_overlong = false;
    bool m_unterminated = false;
    bool m_grew = false;
    std::uint64_t m_lineNumber = 0;
    std::uint64_t m_consumed = 0;
    std::uint64_t m_size = 0; // at the open: nothing past it is read
    std::uint64_t m_read = 0; // bytes read since the start
};

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "line_reader.h"

#include "files/input_file.h"
#include "input_error.h"
#include "message_text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace la {

LineReader::LineReader(const std::string& path, std::size_t bufferBytes)
    : m_path(path), m_buffer(bufferBytes) {
    InputFile input = openInputFile(path, "trace", "save the trace to a file first");
    m_fd = std::move(input.fd);
    m_size = input.bytes;
    // The reader goes through the file once or twice from start to end.
    ::posix_fadvise(m_fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
}

void LineReader::rewind() {
    if (::lseek(m_fd.get(), 0, SEEK_SET) != 0)
        throw InputError("cannot rewind trace '" + m_path + "': " + std::strerror(errno));
    m_begin = m_end = 0;
    m_eof = m_skipping = m_overlong = m_unterminated = m_grew = false;
    m_lineNumber = m_consumed = m_read = 0;
}

bool LineReader::fill() {
    if (m_begin > 0) {
        std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
        m_end -= m_begin;
        m_begin = 0;
    }
    while (m_end < m_buffer.size()) {
        // A trace still being written is read up to its size at the open: read on, the reader would
        // follow the writer for as long as it writes, and both passes must see the same lines.
        const std::uint64_t left = m_size - m_read;
        const ssize_t n =
            left == 0
                ? 0
                : ::read(m_fd.get(), m_buffer.data() + m_end,
                         static_cast<std::size_t>(std::min<std::uint64_t>(m_buffer.size() - m_end, left)));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw InputError("cannot read trace '" + m_path + "': " + std::strerror(errno));
        if (n == 0) {
            m_eof = true;
            if (struct stat st{};
                left == 0 && ::fstat(m_fd.get(), &st) == 0 && std::uint64_t(st.st_size) > m_size)
                m_grew = true;
            break;
        }
        m_read += static_cast<std::uint64_t>(n);
        m_end += static_cast<std::size_t>(n);
        return true;
    }
    return false;
}

bool LineReader::next(std::string_view& line) {
    for (;;) {
        const char* start = m_buffer.data() + m_begin;
        const auto* newline = static_cast<const char*>(std::memchr(start, '\n', m_end - m_begin));
        if (newline) {
            const auto length = static_cast<std::size_t>(newline - start);
            m_begin += length + 1;
            m_consumed += length + 1;
            if (m_skipping) {
                m_skipping = false;
                continue;
            }
            line = std::string_view(start, length);
            m_overlong = m_unterminated = false;
            break;
        }
        const bool full = m_begin == 0 && m_end == m_buffer.size();
        if (full) {
            // No newline in a whole buffer: hand out what there is, drop the rest of the line.
            const bool report = !m_skipping;
            line = std::string_view(start, m_end);
            m_consumed += m_end;
            m_begin = m_end = 0;
            m_skipping = true;
            if (report) {
                m_overlong = true;
                m_unterminated = false;
                break;
            }
            continue;
        }
        if (!m_eof) {
            fill();
            continue;
        }
        if (m_begin == m_end)
            return false;
        if (m_grew) { // the rest of this line was written after the open
            m_consumed += m_end - m_begin;
            m_begin = m_end;
            return false;
        }
        line = std::string_view(start, m_end - m_begin);
        m_consumed += m_end - m_begin;
        m_begin = m_end;
        if (m_skipping) {
            m_skipping = false;
            return false;
        }
        m_overlong = false;
        m_unterminated = true;
        break;
    }
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    ++m_lineNumber;
    return true;
}

} // namespace la

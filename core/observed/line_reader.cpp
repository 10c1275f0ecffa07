// SPDX-License-Identifier: GPL-3.0-or-later
#include "line_reader.h"

#include "input_error.h"
#include "message_text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace la {

LineReader::LineReader(const std::string& path, std::size_t bufferBytes)
    // O_NONBLOCK: opening a FIFO for reading would wait for a writer; the type is checked first.
    : m_path(path), m_fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)), m_buffer(bufferBytes) {
    if (!m_fd.valid())
        throw InputError("cannot open trace '" + excerpt(path) + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(m_fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        throw InputError(
            "trace '" + excerpt(path) +
            "' is not a regular file (a pipe, device or directory); save the trace to a file first");
    const int flags = ::fcntl(m_fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(m_fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
        throw InputError("cannot read trace '" + excerpt(path) + "': " + std::strerror(errno));
    m_size = static_cast<std::uint64_t>(st.st_size);
    // The reader goes through the file once or twice from start to end.
    ::posix_fadvise(m_fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
}

void LineReader::rewind() {
    if (::lseek(m_fd.get(), 0, SEEK_SET) != 0)
        throw InputError("cannot rewind trace '" + m_path + "': " + std::strerror(errno));
    m_begin = m_end = 0;
    m_eof = m_skipping = m_overlong = m_unterminated = false;
    m_lineNumber = m_consumed = 0;
}

bool LineReader::fill() {
    if (m_begin > 0) {
        std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
        m_end -= m_begin;
        m_begin = 0;
    }
    while (m_end < m_buffer.size()) {
        const ssize_t n = ::read(m_fd.get(), m_buffer.data() + m_end, m_buffer.size() - m_end);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw InputError("cannot read trace '" + m_path + "': " + std::strerror(errno));
        if (n == 0) {
            m_eof = true;
            break;
        }
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

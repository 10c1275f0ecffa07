// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "checked_math.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace la {

// A position in one line of a trace with the few scanning steps the parsers need. Every step
// either consumes what it matched or leaves the position where it was and returns false.
class TextCursor {
public:
    explicit TextCursor(std::string_view text) : m_text(text) {}

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }
    std::size_t pos() const { return m_pos; }
    void seek(std::size_t pos) { m_pos = pos < m_text.size() ? pos : m_text.size(); }
    std::string_view rest() const { return m_text.substr(m_pos); }

    bool consume(char c) {
        if (atEnd() || m_text[m_pos] != c)
            return false;
        ++m_pos;
        return true;
    }
    bool consume(std::string_view s) {
        if (!rest().starts_with(s))
            return false;
        m_pos += s.size();
        return true;
    }
    void skipSpaces() {
        while (!atEnd() && m_text[m_pos] == ' ')
            ++m_pos;
    }
    // Moves to the next `c` (not past the end); false if there is none.
    bool skipTo(char c) {
        const std::size_t at = m_text.find(c, m_pos);
        if (at == std::string_view::npos)
            return false;
        m_pos = at;
        return true;
    }

    bool readUnsigned(std::uint64_t& value) {
        std::size_t p = m_pos;
        std::uint64_t v = 0;
        while (p < m_text.size() && m_text[p] >= '0' && m_text[p] <= '9') {
            const auto digit = static_cast<std::uint64_t>(m_text[p] - '0');
            if (v > (UINT64_MAX - digit) / 10)
                return false;
            v = v * 10 + digit;
            ++p;
        }
        if (p == m_pos)
            return false;
        value = v;
        m_pos = p;
        return true;
    }

    // "SECONDS[.FRACTION]" scaled by `unitNs` (1e9 for seconds, 1e6 for milliseconds).
    bool readDecimalNs(std::int64_t unitNs, std::int64_t& ns) {
        const std::size_t start = m_pos;
        std::uint64_t whole = 0;
        if (!readUnsigned(whole) || whole > static_cast<std::uint64_t>(INT64_MAX / unitNs)) {
            m_pos = start;
            return false;
        }
        std::int64_t fraction = 0;
        if (consume('.')) {
            std::int64_t scale = unitNs;
            while (!atEnd() && peek() >= '0' && peek() <= '9') {
                if (scale >= 10) {
                    scale /= 10;
                    fraction += (peek() - '0') * scale;
                }
                ++m_pos;
            }
        }
        if (!checkedAdd(static_cast<std::int64_t>(whole) * unitNs, fraction, ns)) {
            m_pos = start;
            return false;
        }
        return true;
    }

    // An identifier: letters, digits and '_'.
    std::string_view readName() {
        const std::size_t start = m_pos;
        while (!atEnd() && isNameChar(m_text[m_pos]))
            ++m_pos;
        return m_text.substr(start, m_pos - start);
    }

    // Past a C string as strace prints it ("a\"b\\c"); false if it does not end on this line.
    bool skipQuoted() {
        if (!consume('"'))
            return false;
        for (std::size_t p = m_pos; p < m_text.size(); ++p) {
            if (m_text[p] == '\\') {
                ++p;
            } else if (m_text[p] == '"') {
                m_pos = p + 1;
                return true;
            }
        }
        return false;
    }

    // A descriptor's path as the tracers print it after its number, "<PATH>", where `close` (">" or
    // ">,") follows it: past its '>'. True without a path; false for a path that does not end.
    bool readAngledPath(std::string_view close, std::string_view& path) {
        if (!consume('<'))
            return true;
        const std::size_t end = rest().find(close);
        if (end == std::string_view::npos)
            return false;
        path = rest().substr(0, end);
        m_pos += end + 1;
        return true;
    }

    static bool isNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

} // namespace la

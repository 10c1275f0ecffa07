// SPDX-License-Identifier: GPL-3.0-or-later
#include "message_text.h"

#include <algorithm>
#include <cstdio>

namespace la {

std::string mebibytes(std::uint64_t bytes) {
    return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

std::string byteSize(std::uint64_t bytes) {
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024)
        return std::to_string(bytes) + " bytes";
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    for (; value >= 1024.0 && unit + 1 < std::size(kUnits); ++unit)
        value /= 1024.0;
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
    return text;
}

namespace {

void escapeByte(std::string& out, unsigned char c) {
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
    out += escaped;
}

// The length of the valid UTF-8 sequence of a printable character at the start of `text`, or 0.
std::size_t printableSequence(std::string_view text) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(0);
    const std::size_t length = lead >= 0xF5 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
    if (length == 0 || length > text.size())
        return 0;
    auto code = static_cast<char32_t>(lead & (0x7F >> length));
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (byte(i) & 0x3F);
    }
    const char32_t shortest[] = {0, 0, 0x80, 0x800, 0x10000};
    const bool valid = code >= shortest[length] && code <= 0x10FFFF && (code < 0xD800 || code > 0xDFFF);
    const bool control = code < 0xA0 || (code >= 0x202A && code <= 0x202E) ||
                         (code >= 0x2066 && code <= 0x2069) || code == 0x200E || code == 0x200F;
    return valid && !control ? length : 0;
}

} // namespace

std::string excerpt(std::string_view text, std::size_t limit) {
    std::string out;
    std::size_t used = 0;
    for (; used < text.size() && out.size() < limit; ++used) {
        const auto c = static_cast<unsigned char>(text[used]);
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
        } else {
            escapeByte(out, c);
        }
    }
    if (used < text.size())
        out += "… (" + std::to_string(text.size()) + " bytes)";
    return out;
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        const auto c = static_cast<unsigned char>(text.front());
        const std::size_t sequence = c >= 0x80 ? printableSequence(text) : 0;
        if (c >= 0x20 && c < 0x7F)
            out += static_cast<char>(c);
        else if (sequence > 0)
            out.append(text.substr(0, sequence));
        else
            escapeByte(out, c);
        text.remove_prefix(std::max<std::size_t>(sequence, 1));
    }
    return out;
}

std::string printableLines(std::string_view text) {
    std::string out;
    for (std::size_t from = 0; from <= text.size();) {
        std::size_t end = text.find_first_of("\n\t", from);
        if (end == std::string_view::npos)
            end = text.size();
        out += printable(text.substr(from, end - from));
        if (end < text.size())
            out += text[end];
        from = end + 1;
    }
    return out;
}

std::string joined(std::initializer_list<std::string_view> parts) {
    std::size_t size = 0;
    for (const std::string_view part : parts)
        size += part.size();
    std::string text;
    text.reserve(size);
    for (const std::string_view part : parts)
        text.append(part);
    return text;
}

std::string counted(std::uint64_t n) {
    std::string digits = std::to_string(n);
    for (std::size_t at = digits.size(); at > 3; at -= 3)
        digits.insert(at - 3, 1, ',');
    return digits;
}

} // namespace la

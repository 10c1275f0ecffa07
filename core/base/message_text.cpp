// SPDX-License-Identifier: GPL-3.0-or-later
#include "message_text.h"

#include <algorithm>
#include <cmath>
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

std::string fixedText(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string timeText(double ns) {
    const double a = std::fabs(ns);
    const char* const sign = ns < 0 ? "-" : "";
    if (a >= 60e9) {
        const long long seconds = std::llround(a / 1e9);
        return joined({sign, std::to_string(seconds / 60), " min ", std::to_string(seconds % 60), " s"});
    }
    const double unit = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1.0;
    const char* const name = unit == 1e9 ? "s" : unit == 1e6 ? "ms" : unit == 1e3 ? "µs" : "ns";
    const double value = ns / unit;
    const int decimals = unit == 1.0 || std::fabs(value) >= 100 ? 0 : std::fabs(value) >= 10 ? 1 : 3;
    // A half rounds away from zero ("12.25" to "12.3"), where printf would round it to even.
    const double scale = std::pow(10.0, decimals);
    std::string number = fixedText(std::round(value * scale) / scale, decimals);
    if (decimals > 0) {
        number.erase(number.find_last_not_of('0') + 1);
        if (number.back() == '.')
            number.pop_back();
    }
    number.append(" ").append(name);
    return number;
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "message_text.h"

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

std::string excerpt(std::string_view text, std::size_t limit) {
    std::string out;
    std::size_t used = 0;
    for (; used < text.size() && out.size() < limit; ++used) {
        const auto c = static_cast<unsigned char>(text[used]);
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
            out += escaped;
        }
    }
    if (used < text.size())
        out += "… (" + std::to_string(text.size()) + " bytes)";
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

} // namespace la

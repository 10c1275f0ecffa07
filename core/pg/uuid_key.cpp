// SPDX-License-Identifier: GPL-3.0-or-later
#include "uuid_key.h"

#include "text_parse.h"

namespace la::pg {

std::optional<std::string> parseUuidKey(std::string_view text) {
    if (text.size() >= 2 && text.front() == '{' && text.back() == '}')
        text = text.substr(1, text.size() - 2);
    std::string bytes;
    std::size_t digits = 0;
    for (std::size_t at = 0; at < text.size(); ++at) {
        // As uuid_in: a hyphen only after a group of four digits, never two in a row nor last.
        if (text[at] == '-') {
            if (digits == 0 || digits % 4 != 0 || digits == 2 * kUuidBytes || text[at - 1] == '-' ||
                at + 1 == text.size())
                return std::nullopt;
            continue;
        }
        const int value = hexDigitValue(text[at]);
        if (value < 0 || digits == 2 * kUuidBytes)
            return std::nullopt;
        if (digits % 2 == 0)
            bytes.push_back(static_cast<char>(value << 4));
        else
            bytes.back() = static_cast<char>(static_cast<unsigned char>(bytes.back()) | value);
        ++digits;
    }
    if (digits != 2 * kUuidBytes)
        return std::nullopt;
    return bytes;
}

std::string uuidText(std::string_view bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            text += '-';
        const auto byte = static_cast<unsigned char>(bytes[i]);
        text += kHex[byte >> 4];
        text += kHex[byte & 0xF];
    }
    return text;
}

} // namespace la::pg

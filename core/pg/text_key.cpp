// SPDX-License-Identifier: GPL-3.0-or-later
#include "text_key.h"

#include "page_header.h"

namespace la::pg {

namespace {

// The low bits of the first header byte (little-endian): 1 = a one-byte header, 0x01 alone = a
// TOAST pointer, 00 = a four-byte header, 10 = a compressed value.
constexpr std::uint8_t kShortBit = 0x01;
constexpr std::uint8_t kExternalTag = 0x01;
constexpr std::uint8_t kLongMask = 0x03;
constexpr std::uint8_t kCompressed = 0x02;
constexpr std::uint32_t kLongHeader = 4;

} // namespace

Varlena readVarlena(const std::byte* at, std::uint32_t room) {
    Varlena v;
    if (room == 0) {
        v.problem = "no room for a variable-width value";
        return v;
    }
    const auto first = static_cast<std::uint8_t>(*at);
    if (first == kExternalTag) {
        v.problem = "a value stored out of line (TOAST pointer), which only the server can read";
        return v;
    }
    std::uint32_t header = 1;
    if ((first & kShortBit) != 0) {
        v.size = first >> 1;
    } else {
        if (room < kLongHeader) {
            v.problem = "a variable-width value's 4-byte header past the tuple's end";
            return v;
        }
        if ((first & kLongMask) == kCompressed) {
            v.problem = "a compressed value, which only the server can decompress and compare";
            return v;
        }
        header = kLongHeader;
        v.size = readU32(at) >> 2;
    }
    if (v.size < header || v.size > room) {
        v.problem = "a variable-width value of " + std::to_string(v.size) + " bytes where " +
                    std::to_string(room) + " are left in the tuple";
        return v;
    }
    v.value = std::string_view(reinterpret_cast<const char*>(at) + header, v.size - header);
    return v;
}

bool isByteOrderCollation(std::string_view collation) {
    return collation == "C" || collation == "POSIX";
}

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#include "key_range.h"

#include "input_error.h"
#include "message_text.h"

#include <charconv>
#include <cstring>
#include <limits>

namespace la::pg {

namespace {

bool parseInt(const std::string& text, std::int64_t& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && !text.empty();
}

} // namespace

std::optional<KeyRange> parseKeyRange(const std::string& keyType, const std::string& range) {
    KeyRange r;
    r.keyBytes = keyType == "int2" ? 2 : keyType == "int4" ? 4 : 8;
    if (range.empty())
        return std::nullopt;
    const auto colon = range.find(':', range.starts_with("-") ? 1 : 0);
    if (colon == std::string::npos || !parseInt(range.substr(0, colon), r.lo) ||
        !parseInt(range.substr(colon + 1), r.hi))
        throw InputError("--pg-key-range '" + excerpt(range) +
                         "': expected LO:HI, two integers, e.g. 1000:20000");
    if (r.lo > r.hi)
        throw InputError("--pg-key-range '" + excerpt(range) + "': LO is greater than HI");
    const std::int64_t max = r.keyBytes == 8 ? std::numeric_limits<std::int64_t>::max()
                                             : (std::int64_t{1} << (8 * r.keyBytes - 1)) - 1;
    if (r.lo < -max - 1 || r.hi > max)
        throw InputError("--pg-key-range '" + excerpt(range) + "': outside the values of " +
                         (keyType.empty() ? std::string("int8") : keyType));
    return r;
}

std::optional<std::int64_t> leadingKey(const IndexTuple& t, const KeyRange& range, std::string& problem) {
    // An integer key is fixed-width, so a tuple flagged variable-width has some other key type; one
    // too short for the key cannot hold it either. (int2, int4 and int8 keys all pad to 8 bytes, so
    // a wrong integer width goes unnoticed: docs/pg-relations.md §3.)
    if (t.hasVarWidth || t.keyBytes() < range.keyBytes) {
        problem = std::string("its leading key is not a fixed-width integer (") +
                  (t.hasVarWidth ? "variable-width" : std::to_string(t.keyBytes()) + " bytes") +
                  "): --pg-key-range needs an int2, int4 or int8 leading column";
        return std::nullopt;
    }
    if (t.leadingNull())
        return std::nullopt;
    const std::byte* at = t.data + t.keyOffset();
    switch (range.keyBytes) {
    case 2: {
        std::int16_t v;
        std::memcpy(&v, at, sizeof v);
        return v;
    }
    case 4: {
        std::int32_t v;
        std::memcpy(&v, at, sizeof v);
        return v;
    }
    default: {
        std::int64_t v;
        std::memcpy(&v, at, sizeof v);
        return v;
    }
    }
}

} // namespace la::pg

// SPDX-License-Identifier: GPL-3.0-or-later
#include "key_range.h"

#include "datetime_key.h"
#include "input_error.h"
#include "message_text.h"

#include <charconv>
#include <cstring>
#include <limits>

namespace la::pg {

namespace {

bool parseInt(std::string_view text, std::int64_t& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && !text.empty();
}

bool isTimestamp(const std::string& type) {
    return type == "timestamp" || type == "timestamptz";
}

// One bound as the key type's stored integer.
bool parseBound(const std::string& type, std::string_view text, std::int64_t& value) {
    if (type == "date") {
        const std::optional<std::int32_t> days = parseDateKey(text);
        value = days.value_or(0);
        return days.has_value();
    }
    if (isTimestamp(type)) {
        const std::optional<std::int64_t> micros = parseTimestampKey(text);
        value = micros.value_or(0);
        return micros.has_value();
    }
    return parseInt(text, value);
}

const char* exampleOf(const std::string& type) {
    if (type == "date")
        return "two dates, e.g. 2024-01-01:2024-01-31";
    if (isTimestamp(type))
        return "two timestamps (YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]), e.g. 2024-01-01:2024-01-31 12:00:00";
    return "two integers, e.g. 1000:20000";
}

} // namespace

std::optional<KeyRange> parseKeyRange(const std::string& keyType, const std::string& range) {
    KeyRange r;
    if (!keyType.empty())
        r.type = keyType;
    r.keyBytes = r.type == "int2" ? 2 : r.type == "int4" || r.type == "date" ? 4 : 8;
    if (range.empty())
        return std::nullopt;
    // A timestamp holds colons too: the range splits at the one colon with a bound on each side.
    bool split = false;
    for (auto colon = range.find(':'); colon != std::string::npos && !split;
         colon = range.find(':', colon + 1))
        split = parseBound(r.type, std::string_view(range).substr(0, colon), r.lo) &&
                parseBound(r.type, std::string_view(range).substr(colon + 1), r.hi);
    if (!split)
        throw InputError("--pg-key-range '" + excerpt(range) + "': expected LO:HI, " + exampleOf(r.type));
    if (r.lo > r.hi)
        throw InputError("--pg-key-range '" + excerpt(range) + "': LO is greater than HI");
    const std::int64_t max = r.keyBytes == 8 ? std::numeric_limits<std::int64_t>::max()
                                             : (std::int64_t{1} << (8 * r.keyBytes - 1)) - 1;
    if (r.lo < -max - 1 || r.hi > max)
        throw InputError("--pg-key-range '" + excerpt(range) + "': outside the values of " + r.type);
    return r;
}

std::optional<std::int64_t> leadingKey(const IndexTuple& t, const KeyRange& range, std::string& problem) {
    // A NULL leading key stores no bytes to check.
    if (t.leadingNull())
        return std::nullopt;
    // Every key type read here is a fixed-width integer, so a tuple flagged variable-width has some other key
    // type; one too short for the key cannot hold it either. (int2, int4 and int8 keys all pad to 8 bytes, so
    // a wrong integer width goes unnoticed: docs/pg-relations.md §3.)
    if (t.hasVarWidth || t.keyBytes() < range.keyBytes) {
        problem = std::string("its leading key is not a fixed-width integer (") +
                  (t.hasVarWidth ? "variable-width" : std::to_string(t.keyBytes()) + " bytes") +
                  "): --pg-key " + range.type + " needs a leading column of that type";
        return std::nullopt;
    }
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

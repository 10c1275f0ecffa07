// SPDX-License-Identifier: GPL-3.0-or-later
#include "key_column.h"

#include "datetime_key.h"
#include "input_error.h"
#include "message_text.h"
#include "uuid_key.h"

#include <charconv>
#include <limits>

namespace la::pg {

namespace {

struct KnownType {
    std::string_view name;
    KeyKind kind;
    std::uint32_t width, align;
};

// typlen and typalign as pg_type has them.
constexpr KnownType kTypes[] = {
    {"int2", KeyKind::Integer, 2, 2},      {"int4", KeyKind::Integer, 4, 4},
    {"int8", KeyKind::Integer, 8, 8},      {"date", KeyKind::Integer, 4, 4},
    {"timestamp", KeyKind::Integer, 8, 8}, {"timestamptz", KeyKind::Integer, 8, 8},
    {"uuid", KeyKind::Uuid, 16, 1},        {"text", KeyKind::Text, 0, 4},
    {"varchar", KeyKind::Text, 0, 4},
};

constexpr std::size_t kMaxIndexKeys = 32; // INDEX_MAX_KEYS: the null bitmap's bits

bool parseInteger(std::string_view text, std::int64_t& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && !text.empty();
}

int compareBytes(std::string_view a, std::string_view b) {
    // std::string_view compares chars as unsigned char (char_traits<char>::compare is memcmp).
    const int order = a.compare(b);
    return order < 0 ? -1 : order > 0 ? 1 : 0;
}

} // namespace

std::vector<KeyColumn> parseKeyColumns(const std::string& types) {
    std::vector<KeyColumn> columns;
    std::string_view rest = types.empty() ? std::string_view("int8") : std::string_view(types);
    while (true) {
        const std::size_t comma = rest.find(',');
        const std::string_view name = rest.substr(0, comma);
        const KnownType* known = nullptr;
        for (const KnownType& t : kTypes)
            if (t.name == name)
                known = &t;
        if (!known)
            throw InputError("--pg-key '" + excerpt(types) + "': '" + excerpt(name) +
                             "' is not a key type the offline reader knows (int2, int4, int8, date, "
                             "timestamp, timestamptz, uuid, text or varchar, comma-separated in the "
                             "index's column order)");
        if (columns.size() == kMaxIndexKeys)
            throw InputError("--pg-key '" + excerpt(types) + "': more than " + std::to_string(kMaxIndexKeys) +
                             " columns, PostgreSQL's most for an index");
        columns.push_back({std::string(name), known->kind, known->width, known->align});
        if (comma == std::string_view::npos)
            return columns;
        rest = rest.substr(comma + 1);
    }
}

std::optional<KeyValue> parseKeyValue(const KeyColumn& column, std::string_view text) {
    KeyValue v;
    switch (column.kind) {
    case KeyKind::Text:
        v.bytes = text;
        return v;
    case KeyKind::Uuid: {
        std::optional<std::string> bytes = parseUuidKey(text);
        if (!bytes)
            return std::nullopt;
        v.bytes = std::move(*bytes);
        return v;
    }
    case KeyKind::Integer:
        break;
    }
    if (column.type == "date") {
        const std::optional<std::int32_t> days = parseDateKey(text);
        if (!days)
            return std::nullopt;
        v.integer = *days;
        return v;
    }
    if (column.type == "timestamp" || column.type == "timestamptz") {
        const std::optional<std::int64_t> micros = parseTimestampKey(text);
        if (!micros)
            return std::nullopt;
        v.integer = *micros;
        return v;
    }
    if (!parseInteger(text, v.integer))
        return std::nullopt;
    const std::int64_t max = column.width == 8 ? std::numeric_limits<std::int64_t>::max()
                                               : (std::int64_t{1} << (8 * column.width - 1)) - 1;
    if (v.integer < -max - 1 || v.integer > max)
        return std::nullopt;
    return v;
}

int compareValues(const KeyColumn& column, const KeyValue& a, const KeyValue& b) {
    if (a.null || b.null)
        return a.null == b.null ? 0 : a.null ? 1 : -1;
    if (column.kind == KeyKind::Integer)
        return a.integer < b.integer ? -1 : a.integer > b.integer ? 1 : 0;
    return compareBytes(a.bytes, b.bytes);
}

std::string valueText(const KeyColumn& column, const KeyValue& value) {
    if (value.null)
        return "NULL";
    switch (column.kind) {
    case KeyKind::Integer:
        return std::to_string(value.integer);
    case KeyKind::Uuid:
        return uuidText(value.bytes);
    case KeyKind::Text: {
        // Appended rather than "'" + excerpt(…): GCC 12's -Wrestrict misreads that at -O3.
        std::string quoted(1, '\'');
        quoted += excerpt(value.bytes, 40);
        quoted += '\'';
        return quoted;
    }
    }
    return {};
}

} // namespace la::pg

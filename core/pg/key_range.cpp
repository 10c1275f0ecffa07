// SPDX-License-Identifier: GPL-3.0-or-later
#include "key_range.h"

#include "input_error.h"
#include "message_text.h"
#include "text_key.h"

#include <algorithm>

namespace la::pg {

namespace {

// A condition of the range: its text and where its colons outside double quotes are.
struct Condition {
    std::string_view text;
    std::vector<std::size_t> colons;
};

// Splits the range at the commas outside double quotes.
std::vector<Condition> splitConditions(std::string_view range) {
    std::vector<Condition> conditions(1);
    std::size_t start = 0;
    bool quoted = false;
    for (std::size_t at = 0; at <= range.size(); ++at) {
        if (at < range.size() && range[at] == '"') {
            quoted = !quoted; // a doubled quote inside toggles twice
            continue;
        }
        if (at < range.size() && quoted)
            continue;
        if (at == range.size() || range[at] == ',') {
            conditions.back().text = range.substr(start, at - start);
            if (at < range.size())
                conditions.emplace_back();
            start = at + 1;
        } else if (range[at] == ':') {
            conditions.back().colons.push_back(at - start);
        }
    }
    return conditions;
}

// A bound as written: in double quotes (a doubled quote stands for one), or bare without quotes.
std::optional<std::string> unquoted(std::string_view raw) {
    if (raw.empty() || raw.front() != '"')
        return raw.find('"') == std::string_view::npos ? std::optional(std::string(raw)) : std::nullopt;
    if (raw.size() < 2 || raw.back() != '"')
        return std::nullopt;
    std::string text;
    for (std::size_t at = 1; at + 1 < raw.size(); ++at) {
        if (raw[at] == '"' && (at + 2 >= raw.size() || raw[++at] != '"'))
            return std::nullopt;
        text += raw[at];
    }
    return text;
}

std::optional<KeyValue> boundOf(const KeyColumn& column, std::string_view raw) {
    const std::optional<std::string> text = unquoted(raw);
    return text ? parseKeyValue(column, *text) : std::nullopt;
}

std::string exampleOf(const KeyColumn& column) {
    if (column.type == "date")
        return "two dates, e.g. 2024-01-01:2024-01-31, or one date";
    if (column.type == "timestamp" || column.type == "timestamptz")
        return "two timestamps (YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]), e.g. 2024-01-01:2024-01-31 12:00:00, "
               "or one timestamp";
    if (column.kind == KeyKind::Uuid)
        return "two uuids, e.g. 00000000-0000-0000-0000-000000000000:7fffffff-ffff-ffff-ffff-ffffffffffff, "
               "or one uuid";
    if (column.kind == KeyKind::Text)
        return "two strings, e.g. apple:banana, or one string; a string holding ':', ',' or '\"' in double "
               "quotes (\"a:b\", a doubled \"\" for a quote)";
    return "two integers of " + column.type + ", e.g. 1000:20000, or one integer";
}

// The bounds of one condition. A date or timestamp holds colons itself and a string may too: every
// reading of the condition (one value, or LO:HI split at any one colon) is tried, and exactly one
// must hold.
void parseCondition(const KeyColumn& column, const Condition& condition, const std::string& where,
                    KeyValue& lo, KeyValue& hi) {
    int readings = 0;
    if (column.kind == KeyKind::Text && condition.colons.size() > 1)
        throw InputError(where + ": more than one ':' outside double quotes, so LO:HI is ambiguous; " +
                         exampleOf(column));
    if (condition.colons.empty() || column.kind != KeyKind::Text)
        if (std::optional<KeyValue> value = boundOf(column, condition.text)) {
            lo = *value;
            hi = std::move(*value);
            ++readings;
        }
    for (const std::size_t colon : condition.colons) {
        std::optional<KeyValue> low = boundOf(column, condition.text.substr(0, colon));
        std::optional<KeyValue> high = boundOf(column, condition.text.substr(colon + 1));
        if (low && high) {
            lo = std::move(*low);
            hi = std::move(*high);
            ++readings;
        }
    }
    if (readings == 0)
        throw InputError(where + ": expected LO:HI, " + exampleOf(column));
    if (readings > 1)
        throw InputError(where + ": can be read more than one way; quote the bounds (\"LO\":\"HI\")");
    if (compareValues(column, lo, hi) > 0)
        throw InputError(where + ": LO is greater than HI");
}

} // namespace

bool KeyRange::contains(const TupleKey& key) const {
    if (key.values.size() < compared())
        return false; // a separator cut short: minus infinity in a compared column
    for (std::size_t i = 0; i < compared(); ++i) {
        const KeyValue& value = key.values[i];
        if (value.null || compareValues(columns[i], value, lo.values[i]) < 0 ||
            compareValues(columns[i], value, hi.values[i]) > 0)
            return false;
    }
    return true;
}

bool KeyRange::comparesText() const {
    return std::any_of(columns.begin(), columns.begin() + static_cast<std::ptrdiff_t>(compared()),
                       [](const KeyColumn& c) { return c.kind == KeyKind::Text; });
}

std::optional<KeyRange> parseKeyRange(const std::string& keyTypes, const std::string& range,
                                      const std::string& collation) {
    KeyRange r;
    r.columns = parseKeyColumns(keyTypes);
    if (range.empty())
        return std::nullopt;
    const std::vector<Condition> conditions = splitConditions(range);
    const std::string quoted = "--pg-key-range '" + excerpt(range) + "'";
    if (conditions.size() > r.columns.size())
        throw InputError(quoted + " has " + std::to_string(conditions.size()) + " conditions but --pg-key '" +
                         excerpt(keyTypes) + "' names " + std::to_string(r.columns.size()) +
                         " column(s): one condition per leading column, comma-separated (--pg-key int4,int8 "
                         "--pg-key-range 5,10:20 is a = 5 AND b BETWEEN 10 AND 20)");
    r.lo.values.resize(conditions.size());
    r.hi.values.resize(conditions.size());
    for (std::size_t i = 0; i < conditions.size(); ++i) {
        const std::string where = conditions.size() == 1 ? quoted
                                                         : quoted + ", condition " + std::to_string(i + 1) +
                                                               " (" + r.columns[i].type + ")";
        parseCondition(r.columns[i], conditions[i], where, r.lo.values[i], r.hi.values[i]);
    }
    if (r.comparesText() && !isByteOrderCollation(collation))
        throw InputError(
            collation.empty()
                ? "--pg-key " + excerpt(keyTypes) +
                      ": a text key sorts as its collation says, and the index's files do not record "
                      "which: if the column's collation is C or POSIX (pg_get_indexdef() names it, else "
                      "it is the database's datcollate), or its operator class is text_pattern_ops, give "
                      "--pg-collation C; for any other collation record the query on the server instead "
                      "(lookahead record)"
                : "--pg-collation '" + excerpt(collation) +
                      "': only C and POSIX sort text by its bytes, as the offline reader compares it; for "
                      "any other collation record the query on the server instead (lookahead record)");
    return r;
}

} // namespace la::pg

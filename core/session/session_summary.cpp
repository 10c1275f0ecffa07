// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_summary.h"

#include "figure_limits.h"
#include "input_error.h"
#include "message_text.h"
#include "summary_fields.h"

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <type_traits>

namespace la {

namespace {

std::string real(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// "a:b c:d ...": the read-size histogram and the collapse intervals, as FieldReader::read() reads them.
template <class Pairs> std::string pairsText(const Pairs& pairs) {
    std::string text;
    for (const auto& [first, second] : pairs) {
        if (!text.empty())
            text += ' ';
        text += std::to_string(first);
        text += ':';
        text += std::to_string(second);
    }
    return text;
}

// A figure as the session keeps it: exactly, in text.
struct FieldText {
    std::string operator()(const std::string* value) const { return *value; }
    template <std::integral T> std::string operator()(const T* value) const { return std::to_string(*value); }
    std::string operator()(const bool* value) const { return *value ? "1" : "0"; }
    std::string operator()(const double* value) const { return real(*value); }
    std::string operator()(const std::optional<double>* value) const {
        return *value ? real(**value) : std::string();
    }
    std::string operator()(const std::map<int, std::uint64_t>* value) const { return pairsText(*value); }
    std::string operator()(const std::vector<CollapseInterval>* value) const { return pairsText(*value); }
    // EXPLAIN's and the index scan's structs are JSON figures; a session keeps their counters.
    template <class T> std::string operator()(const T*) const {
        throw std::logic_error("a summary figure the session does not keep");
    }
};

// Reads fields by name; a missing or malformed one is a damaged file.
class FieldReader {
public:
    FieldReader(const NameValues& fields, std::string_view which) : m_which(which) {
        for (const auto& [name, value] : fields)
            m_fields[name] = value;
    }
    bool has(std::string_view name) const { return m_fields.contains(std::string(name)); }

    void read(std::string_view name, std::string& value) const { value = text(name); }
    template <std::integral T> void read(std::string_view name, T& value) const { value = whole<T>(name); }
    void read(std::string_view name, bool& value) const { value = whole<int>(name) != 0; }
    void read(std::string_view name, double& value) const { value = real(name); }
    void read(std::string_view name, std::optional<double>& value) const {
        value = text(name).empty() ? std::nullopt : std::optional<double>(real(name));
    }
    // Sizes as the engine's events count them (1..255 blocks), intervals in order: the views sum
    // last - first and index by size.
    void read(std::string_view name, std::map<int, std::uint64_t>& value) const {
        pairs(name, [&](std::uint64_t size, std::uint64_t count) {
            if (size == 0 || size > 255)
                bad(name, "has a read size outside 1..255");
            value[int(size)] = count;
        });
    }
    void read(std::string_view name, std::vector<CollapseInterval>& value) const {
        pairs(name, [&](std::uint64_t first, std::uint64_t last) {
            if (last < first)
                bad(name, "has an interval that ends before it starts");
            value.emplace_back(first, last);
        });
    }
    template <class T> void read(std::string_view, T&) const {
        throw std::logic_error("a summary figure the session does not keep");
    }

private:
    const std::string& text(std::string_view name) const {
        const auto it = m_fields.find(std::string(name));
        if (it == m_fields.end())
            bad(name, "is missing");
        return it->second;
    }
    template <class T> T whole(std::string_view name) const { return wholeOf<T>(name, text(name)); }
    // A whole number in the range of what its type holds in a summary (figure_limits.h): a count (of
    // blocks, reads, waits, bytes) up to kMaxFigureCount, a time (ns) up to kMaxRunTimeNs, and any
    // other (a distance, a number of workers) up to INT_MAX; none is negative.
    template <class T> T wholeOf(std::string_view name, const std::string& value) const {
        T result{};
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), result);
        if (error != std::errc() || end != value.data() + value.size())
            bad(name, "is not a whole number");
        T most{};
        if constexpr (std::is_same_v<T, std::uint64_t>)
            most = kMaxFigureCount;
        else if constexpr (std::is_same_v<T, std::int64_t>)
            most = kMaxRunTimeNs;
        else
            most = std::numeric_limits<int>::max();
        bool negative = false;
        if constexpr (std::is_signed_v<T>)
            negative = result < 0;
        if (negative || result > most)
            bad(name, joined({"is ", value, ", out of its range 0..", std::to_string(most),
                              std::is_same_v<T, std::int64_t> ? " ns" : ""}));
        return result;
    }
    double real(std::string_view name) const {
        const std::string& value = text(name);
        char* end = nullptr;
        const double result = std::strtod(value.c_str(), &end);
        if (value.empty() || end != value.c_str() + value.size())
            bad(name, "is not a number");
        return result;
    }
    // "first:second first:second ...": pairs of whole numbers.
    template <class Add> void pairs(std::string_view name, const Add& add) const {
        const std::string& text = this->text(name);
        std::size_t at = 0;
        while (at < text.size()) {
            std::size_t end = text.find(' ', at);
            if (end == std::string::npos)
                end = text.size();
            const std::string item = text.substr(at, end - at);
            const auto colon = item.find(':');
            if (colon == std::string::npos)
                bad(name, "is malformed");
            add(wholeOf<std::uint64_t>(name, item.substr(0, colon)),
                wholeOf<std::uint64_t>(name, item.substr(colon + 1)));
            at = end + 1;
        }
    }
    [[noreturn]] void bad(std::string_view name, std::string_view why) const {
        throw InputError(joined({m_which, m_which.empty() ? "" : ": ", "summary field '", name, "' ", why}));
    }
    std::map<std::string, std::string> m_fields;
    std::string m_which;
};

} // namespace

NameValues summaryFields(const RunSummary& s) {
    NameValues fields;
    for (const SummaryField& field : summaryFieldTable())
        if (field.inSession() && (!field.has(kPgIndex) || s.pgIndex))
            fields.emplace_back(field.name, std::visit(FieldText{}, field.view(s)));
    return fields;
}

RunSummary summaryFromFields(const NameValues& fields, std::string_view which) {
    const FieldReader reader(fields, which);
    const auto table = summaryFieldTable();
    // The index scan's facts are all there or none.
    const bool pgIndex = std::ranges::any_of(
        table, [&](const SummaryField& field) { return field.has(kPgIndex) && reader.has(field.name); });
    RunSummary s;
    if (pgIndex)
        s.pgIndex.emplace();
    for (const SummaryField& field : table)
        if (field.inSession() && (!field.has(kPgIndex) || pgIndex) &&
            (!field.has(kNewerField) || reader.has(field.name)))
            std::visit([&](auto* value) { reader.read(field.name, *value); }, field.slot(s));
    return s;
}

} // namespace la

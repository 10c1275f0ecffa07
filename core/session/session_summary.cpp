// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_summary.h"

#include "input_error.h"
#include "message_text.h"

#include <charconv>
#include <cstdio>
#include <map>

namespace la {

namespace {

std::string real(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

std::string optionalReal(const std::optional<double>& value) {
    return value ? real(*value) : std::string();
}

// "a:b c:d ...": the read-size histogram and the collapse intervals, as the reader's pairs() reads them.
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

// Reads fields by name; a missing or malformed one is a damaged file.
class FieldReader {
public:
    FieldReader(const NameValues& fields, const std::string& where) : m_where(where) {
        for (const auto& [name, value] : fields)
            m_fields[name] = value;
    }
    bool has(const std::string& name) const { return m_fields.contains(name); }
    const std::string& text(const std::string& name) const {
        const auto it = m_fields.find(name);
        if (it == m_fields.end())
            bad(name, "is missing");
        return it->second;
    }
    template <class T> T whole(const std::string& name) const {
        const std::string& value = text(name);
        T result{};
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), result);
        if (error != std::errc() || end != value.data() + value.size())
            bad(name, "is not a whole number");
        return result;
    }
    double real(const std::string& name) const {
        const std::string& value = text(name);
        char* end = nullptr;
        const double result = std::strtod(value.c_str(), &end);
        if (value.empty() || end != value.c_str() + value.size())
            bad(name, "is not a number");
        return result;
    }
    std::optional<double> optionalReal(const std::string& name) const {
        return text(name).empty() ? std::nullopt : std::optional<double>(real(name));
    }
    bool flag(const std::string& name) const { return whole<int>(name) != 0; }

private:
    [[noreturn]] void bad(const std::string& name, const char* why) const {
        throw sessionDamaged(m_where, joined({"summary field '", name, "' ", why}));
    }
    std::map<std::string, std::string> m_fields;
    std::string m_where;
};

} // namespace

NameValues summaryFields(const RunSummary& s) {
    NameValues f;
    const auto add = [&](const char* name, std::string value) { f.emplace_back(name, std::move(value)); };
    const auto n = [](auto value) { return std::to_string(value); };
    add("policy", s.policy);
    add("mechanics", s.mechanics);
    add("blocks", n(s.blocks));
    add("hits", n(s.hits));
    add("misses", n(s.misses));
    add("ios", n(s.ios));
    add("io_size_hist", pairsText(s.ioSizeHist));
    add("device_reads", n(s.deviceReads));
    add("bytes_read", n(s.bytesRead));
    add("waits", n(s.waits));
    add("wait_ns", n(s.waitNs));
    add("runtime_ns", n(s.runtimeNs));
    add("resets", n(s.resets));
    add("distance_mean", real(s.distanceMean));
    add("distance_time_mean", real(s.distanceTimeMean));
    add("distance_max", n(s.distanceMax));
    add("frac_distance_le2", real(s.fracDistanceLe2));
    add("pinned_mean", real(s.pinnedMean));
    add("in_flight_mean", real(s.inFlightMean));
    add("max_pinned", n(s.maxPinned));
    add("io_combine_limit", n(s.ioCombineLimit));
    add("collapse_intervals", pairsText(s.collapseIntervals));
    const ExplainIo& e = s.explainIo;
    add("explain.prefetch_count", n(e.prefetchCount));
    add("explain.distance_sum", n(e.distanceSum));
    add("explain.distance_max", n(e.distanceMax));
    add("explain.distance_capacity", n(e.distanceCapacity));
    add("explain.wait_count", n(e.waitCount));
    add("explain.io_count", n(e.ioCount));
    add("explain.io_blocks", n(e.ioBlocks));
    add("explain.io_in_progress", n(e.ioInProgress));
    add("explain.prefetch_known", n(int(e.prefetchKnown)));
    add("explain.waits_known", n(int(e.waitsKnown)));
    add("io_method_used", s.ioMethodUsed);
    add("fallback_reason", s.fallbackReason);
    add("direct_io", n(int(s.directIo)));
    add("pages_verified", n(s.pagesVerified));
    add("os_cache_resident_before", optionalReal(s.osCacheResidentBefore));
    add("os_cache_resident_after", optionalReal(s.osCacheResidentAfter));
    if (s.pgIndex) {
        const pg::IndexFacts& p = *s.pgIndex;
        add("pg.index_blocks", n(p.indexBlocks));
        add("pg.leaf_pages", n(p.leafPages));
        add("pg.tids", n(p.tids));
        add("pg.posting_lists", n(p.postingLists));
        add("pg.dead_items", n(p.deadItems));
        add("pg.visits", n(p.visits));
        add("pg.distinct_blocks", n(p.distinctBlocks));
        add("pg.ascending_steps", n(p.ascendingSteps));
        add("pg.descending_steps", n(p.descendingSteps));
        add("pg.random_steps", n(p.randomSteps));
        add("pg.checksums", n(int(p.checksums)));
    }
    add("cancelled", n(int(s.cancelled)));
    add("error", s.error);
    return f;
}

RunSummary summaryFromFields(const NameValues& fields, const std::string& where) {
    const FieldReader r(fields, where);
    RunSummary s;
    s.policy = r.text("policy");
    s.mechanics = r.text("mechanics");
    s.blocks = r.whole<std::uint64_t>("blocks");
    s.hits = r.whole<std::uint64_t>("hits");
    s.misses = r.whole<std::uint64_t>("misses");
    s.ios = r.whole<std::uint64_t>("ios");
    // "size:count size:count ..." and "first:last ...": pairs of whole numbers.
    const auto pairs = [&](const char* name, const auto& add) {
        const std::string& text = r.text(name);
        std::size_t at = 0;
        while (at < text.size()) {
            std::size_t end = text.find(' ', at);
            if (end == std::string::npos)
                end = text.size();
            const std::string item = text.substr(at, end - at);
            const auto colon = item.find(':');
            const NameValues one{{"a", item.substr(0, colon == std::string::npos ? 0 : colon)},
                                 {"b", colon == std::string::npos ? "" : item.substr(colon + 1)}};
            const FieldReader p(one, where);
            if (colon == std::string::npos || !p.has("a"))
                throw sessionDamaged(where, joined({"summary field '", name, "' is malformed"}));
            add(p.whole<std::uint64_t>("a"), p.whole<std::uint64_t>("b"));
            at = end + 1;
        }
    };
    // Sizes as the engine's events count them (1..255 blocks), intervals in order: the views sum
    // last - first and index by size.
    pairs("io_size_hist", [&](std::uint64_t size, std::uint64_t count) {
        if (size == 0 || size > 255)
            throw sessionDamaged(where, "summary field 'io_size_hist' has a read size outside 1..255");
        s.ioSizeHist[int(size)] = count;
    });
    s.deviceReads = r.whole<std::uint64_t>("device_reads");
    s.bytesRead = r.whole<std::uint64_t>("bytes_read");
    s.waits = r.whole<std::uint64_t>("waits");
    s.waitNs = r.whole<std::int64_t>("wait_ns");
    s.runtimeNs = r.whole<std::int64_t>("runtime_ns");
    s.resets = r.whole<std::uint64_t>("resets");
    s.distanceMean = r.real("distance_mean");
    s.distanceTimeMean = r.real("distance_time_mean");
    s.distanceMax = r.whole<int>("distance_max");
    s.fracDistanceLe2 = r.real("frac_distance_le2");
    s.pinnedMean = r.real("pinned_mean");
    s.inFlightMean = r.real("in_flight_mean");
    s.maxPinned = r.whole<int>("max_pinned");
    s.ioCombineLimit = r.whole<int>("io_combine_limit");
    pairs("collapse_intervals", [&](std::uint64_t first, std::uint64_t last) {
        if (last < first)
            throw sessionDamaged(where, "summary field 'collapse_intervals' has an interval that ends "
                                        "before it starts");
        s.collapseIntervals.emplace_back(first, last);
    });
    ExplainIo& e = s.explainIo;
    e.prefetchCount = r.whole<std::uint64_t>("explain.prefetch_count");
    e.distanceSum = r.whole<std::uint64_t>("explain.distance_sum");
    e.distanceMax = r.whole<int>("explain.distance_max");
    e.distanceCapacity = r.whole<int>("explain.distance_capacity");
    e.waitCount = r.whole<std::uint64_t>("explain.wait_count");
    e.ioCount = r.whole<std::uint64_t>("explain.io_count");
    e.ioBlocks = r.whole<std::uint64_t>("explain.io_blocks");
    e.ioInProgress = r.whole<std::uint64_t>("explain.io_in_progress");
    e.prefetchKnown = r.flag("explain.prefetch_known");
    e.waitsKnown = r.flag("explain.waits_known");
    s.ioMethodUsed = r.text("io_method_used");
    s.fallbackReason = r.text("fallback_reason");
    s.directIo = r.flag("direct_io");
    s.pagesVerified = r.whole<std::uint64_t>("pages_verified");
    s.osCacheResidentBefore = r.optionalReal("os_cache_resident_before");
    s.osCacheResidentAfter = r.optionalReal("os_cache_resident_after");
    if (r.has("pg.visits")) {
        pg::IndexFacts p;
        p.indexBlocks = r.whole<std::uint64_t>("pg.index_blocks");
        p.leafPages = r.whole<std::uint64_t>("pg.leaf_pages");
        p.tids = r.whole<std::uint64_t>("pg.tids");
        p.postingLists = r.whole<std::uint64_t>("pg.posting_lists");
        p.deadItems = r.whole<std::uint64_t>("pg.dead_items");
        p.visits = r.whole<std::uint64_t>("pg.visits");
        p.distinctBlocks = r.whole<std::uint64_t>("pg.distinct_blocks");
        p.ascendingSteps = r.whole<std::uint64_t>("pg.ascending_steps");
        p.descendingSteps = r.whole<std::uint64_t>("pg.descending_steps");
        p.randomSteps = r.whole<std::uint64_t>("pg.random_steps");
        p.checksums = r.flag("pg.checksums");
        s.pgIndex = p;
    }
    s.cancelled = r.flag("cancelled");
    s.error = r.text("error");
    return s;
}

} // namespace la

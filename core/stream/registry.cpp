// SPDX-License-Identifier: GPL-3.0-or-later
#include "registry.h"

#include "adaptive_policy.h"
#include "input_error.h"
#include "version_policies.h"

#include <array>
#include <charconv>
#include <vector>

namespace la {

namespace {
template <typename Policy> std::unique_ptr<DistancePolicy> make(int) {
    return std::make_unique<Policy>();
}

std::unique_ptr<DistancePolicy> makeFixed(int distance) {
    return std::make_unique<FixedPolicy>(distance);
}

const std::array<PolicyEntry, 6> kPolicies{{
    {"pg17", "PostgreSQL 17: hits -1, sequential towards io_combine_limit, advised x2", &kPg17Mechanics,
     "pg17", make<Pg17Policy>},
    {"pg18", "PostgreSQL 18: every completed read x2, every hit -1", &kPg18Mechanics, "pg18",
     make<Pg18Policy>},
    {"pg19", "PostgreSQL 19: x2 only on a wait, hits decay after a hold-off", &kPg19Mechanics, "pg19",
     make<Pg19Policy>},
    {"cf7035", "CF 7035 v2: PostgreSQL 19's distances, descending runs read backward as one read",
     &kCf7035Mechanics, "cf7035", make<Pg19Policy>},
    {"fixed:N", "a constant distance of N blocks", &kPg18Mechanics, "fixed:16", makeFixed},
    {"adaptive", "Lookahead's own: the distance that hides the measured latency", &kPg19Mechanics, "adaptive",
     make<AdaptivePolicy>},
}};

const std::array<const Mechanics*, 4> kMechanics{&kPg17Mechanics, &kPg18Mechanics, &kPg19Mechanics,
                                                 &kCf7035Mechanics};

struct ParsedName {
    const PolicyEntry* entry = nullptr;
    int argument = 0;
};

// "fixed:16" is the entry "fixed:N" with the argument 16.
ParsedName parse(const std::string& name) {
    for (const PolicyEntry& entry : kPolicies) {
        const std::string_view pattern = entry.name;
        if (!pattern.ends_with(":N")) {
            if (name == pattern)
                return {&entry, 0};
            continue;
        }
        const std::string_view prefix = pattern.substr(0, pattern.size() - 1);
        if (!name.starts_with(prefix))
            continue;
        const char* digits = name.data() + prefix.size();
        int argument = 0;
        const auto [end, error] = std::from_chars(digits, name.data() + name.size(), argument);
        if (error != std::errc{} || end != name.data() + name.size() || argument < 1 || argument > 32767)
            throw InputError("policy '" + name + "': the distance after '" + std::string(prefix) +
                             "' must be a whole number 1..32767");
        return {&entry, argument};
    }
    throw InputError("unknown policy '" + name + "': choose " + policyChoices());
}

std::string choices(const std::vector<std::string>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}
} // namespace

std::span<const PolicyEntry> policyRegistry() {
    return kPolicies;
}

std::span<const Mechanics* const> mechanicsRegistry() {
    return kMechanics;
}

const PolicyEntry& findPolicy(const std::string& name) {
    return *parse(name).entry;
}

std::unique_ptr<DistancePolicy> makePolicy(const std::string& name) {
    const ParsedName parsed = parse(name);
    return parsed.entry->make(parsed.argument);
}

const Mechanics& findMechanics(const std::string& name) {
    for (const Mechanics* mechanics : kMechanics)
        if (name == mechanics->name)
            return *mechanics;
    throw InputError("unknown mechanics '" + name + "': choose " + mechanicsChoices());
}

const Mechanics& mechanicsFor(const std::string& policy, const std::string& mechanics) {
    return mechanics.empty() ? *findPolicy(policy).mechanics : findMechanics(mechanics);
}

std::string policyChoices() {
    std::vector<std::string> names;
    names.reserve(std::size(kPolicies));
    for (const PolicyEntry& entry : kPolicies)
        names.emplace_back(entry.name);
    return choices(names);
}

std::string mechanicsChoices() {
    std::vector<std::string> names;
    names.reserve(std::size(kMechanics));
    for (const Mechanics* mechanics : kMechanics)
        names.emplace_back(mechanics->name);
    return choices(names);
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_indexes.h"
#include "dataset.h"
#include "input_error.h"
#include "message_text.h"
#include "parametric_tables.h"
#include "patterns.h"
#include "range_scan_tables.h"
#include "visits.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <sstream>
#include <string_view>

namespace la {

namespace {

// docs/datasets.md §2.5 / §7: the simulations behind the published statistics used seed 42 for family A and
// 7 for families B and C.
constexpr std::uint64_t kSeedA = 42;
constexpr std::uint64_t kSeedBC = 7;
// hash-groups averages 8,117 distinct blocks over seeds (sd ~35), 0.7% under S6's 8,173; seed 6 gives
// 8,180, so the default stands for the measured S6 list.
constexpr std::uint64_t kSeedPatterns = 6;
constexpr double kSmallestScale = 0.001;
constexpr double kScaleA = 0.05;      // 500k rows, 27,778 blocks
constexpr double kScaleB = 0.05;      // 500k rows at ff 20: 23,810 blocks
constexpr double kScaleBff100 = 0.25; // 2.5M rows at ff 100: 23,365 blocks
constexpr double kScaleTpcc = 0.07;   // 210 orders per district
constexpr double kScalePgbench = 0.125;
constexpr std::uint64_t kPatternBlocks = 65536; // the relation of docs/read-stream-model.md §13
constexpr std::uint64_t kLargestPatternBlocks = 1ULL << 31;
// C2's relation size depends on the drawn order sizes; measured at seed 7 (tst_datasets checks them).
constexpr std::uint64_t kTpccBlocksDefault = 32352;
constexpr std::uint64_t kTpccBlocksPublished = 461520;
constexpr std::uint64_t kTpccE1BlocksDefault = 32294;
constexpr std::uint64_t kTpccE1BlocksPublished = 461468;

struct Build {
    double scale;
    std::uint64_t seed;
    Direction direction;
    std::uint64_t blocks;
};

struct Entry {
    DatasetInfo info;
    std::uint64_t seed; // the entry's own seed, used when the request gives 0
    std::function<std::unique_ptr<BlockSource>(const Build&)> make;
};

Entry familyA(std::string name, std::string group, std::string description, FamilyASpec spec) {
    return {{std::move(name), std::move(group), std::move(description), "none", kScaleA,
             familyARelationBlocks(kScaleA), familyARelationBlocks(1.0), false},
            kSeedA,
            [spec](const Build& build) {
                return makeVisitSource(generateFamilyA(spec, build.scale, build.seed), build.direction);
            }};
}

Entry familyB(std::string name, std::string group, std::string description, FamilyBSpec spec,
              double defaultScale) {
    return {{std::move(name), std::move(group), std::move(description), "none", defaultScale,
             familyBRelationBlocks(spec, defaultScale), familyBRelationBlocks(spec, 1.0), false},
            kSeedBC,
            [spec](const Build& build) {
                return makeVisitSource(generateFamilyB(spec, build.scale, build.seed), build.direction);
            }};
}

// Family B's tables (Vondra's Sept 2025 generator, ORDER BY a ASC): its step, fuzz, fuzz2, fillfactor,
// descending load, first value and value count (docs/datasets.md §4), and what the picker says;
// kPages stands for the page fill.
constexpr std::string_view kPages = "{pages}";
struct FamilyBRow {
    const char* name;
    const char* group;
    const char* description;
    FamilyBSpec spec;
    double scale = kScaleB;
};
const FamilyBRow kFamilyB[] = {
    {"fuzz-b1",
     "Correlation",
     "Index scan of a table loaded in key order{pages}: perfectly correlated, one ascending sweep",
     {1, 0, 0, 20, false, 16336, 1048576}},
    {"fuzz-b2",
     "Random",
     "Index scan of unique keys stored in random order{pages}: every row on a random block",
     {1, -1, 0, 20, false, 16336, 1048576}},
    {"fuzz-b3",
     "Clustered but uncorrelated",
     "Index scan of a table whose 32 rows per key sit together on 2-3 adjacent blocks, the keys in random "
     "order{pages}",
     {32, -1, 0, 20, false, 16336, 32768}},
    {"fuzz-b4",
     "Clustered but uncorrelated",
     "As fuzz-b3 (32 rows per key together, keys in random order), each row moved up to 8 places{pages}",
     {32, -1, 8, 20, false, 16336, 32768}},
    {"fuzz-b5",
     "Almost sorted",
     "Index scan of a table almost in key order, 2 rows per key shuffled locally: the scan steps back and "
     "forth, a block comes back 2-3 visits later{pages}",
     {2, 16, 0, 20, false, 16336, 1048576}},
    {"fuzz-b6",
     "Correlation",
     "Index scan of a table in key order, 4 rows per key, each row moved up to 8 places: sequential with "
     "local jitter{pages}",
     {4, 0, 8, 20, false, 16336, 32768}},
    {"fuzz-b7",
     "Almost sorted",
     "Index scan of a table roughly in key order, 8 rows per key shuffled over 1,024 places: many revisits "
     "close together{pages}",
     {8, 1024, 128, 20, false, 16336, 32768}},
    {"fuzz-b8",
     "Almost sorted",
     "Index scan of a table loaded in descending key order, 16 rows per key: the scan walks the table "
     "downward, upward inside each key{pages}",
     {16, 16, 8, 20, true, 16336, 32768}},
    {"fuzz-b3-ff100",
     "Clustered but uncorrelated",
     "As fuzz-b3 with full pages (107 rows per page): each key's rows on 1-2 blocks, the keys in random "
     "order",
     {32, -1, 0, 100, false, 16336, 32768},
     kScaleBff100},
    {"fuzz-did1",
     "Almost sorted",
     "A published NVMe run: 8 rows per key, shuffled over 262,144 places{pages} (its buffer counts match the "
     "published ones)",
     {8, 262144, 2, 20, false, 21327, 32768}},
    {"hash-clustered",
     "Clustered but uncorrelated",
     "Index scan of a table clustered on a hash of its key: each key's 32 rows on 2-3 adjacent blocks, the "
     "keys in random order{pages}",
     {32, -1, 0, 20, false, 16336, 32768}},
    {"hash-clustered-twin-correlated",
     "Correlation",
     "The hash-clustered table before it was clustered: one ascending sweep (49,933 blocks at full "
     "size){pages}",
     {32, 0, 0, 20, false, 16336, 32768}},
};

Entry tpcc(std::string name, std::string description, std::uint32_t extentBlocks, std::uint64_t defaultBlocks,
           std::uint64_t publishedBlocks) {
    // C2's run had ~18% of the scanned heap blocks cached (17,815 hits, 33,855 reads; §5.2).
    return {{std::move(name), "Clustered but uncorrelated", std::move(description), "fraction:0.18:7",
             kScaleTpcc, defaultBlocks, publishedBlocks, false},
            kSeedBC,
            [extentBlocks](const Build& build) {
                return makeVisitSource(generateTpcc(extentBlocks, build.scale, build.seed), build.direction);
            }};
}

Entry pattern(std::string name, std::string description, std::string prewarm,
              std::function<std::unique_ptr<BlockSource>(const Build&)> make) {
    return {{std::move(name), "Synthetic", std::move(description), std::move(prewarm), 1.0, kPatternBlocks,
             kPatternBlocks, true},
            kSeedPatterns,
            std::move(make)};
}

std::unique_ptr<BlockSource> sequential(const Build& build) {
    return makeSequentialPattern(build.blocks, build.direction);
}

std::vector<Entry> buildEntries() {
    using Keys = FamilyASpec::Keys;
    // What a user sees in the picker and --list-datasets: the table and the query in plain words
    // (docs/datasets.md names each by its origin's ID).
    const std::string aRange = " (the query: a tenth of the keys, 1 M of 10 M rows at full size)";
    std::vector<Entry> entries;
    // Family A (docs/datasets.md §3): Vondra's July 2025 index-scan prefetch tests, 18 rows per page.
    entries.push_back(familyA("uniform", "Random",
                              "Index scan of a table with random keys: every row found is on a block of "
                              "its own, in random order" +
                                  aRange,
                              {Keys::Uniform, 0}));
    entries.push_back(familyA("linear", "Correlation",
                              "Index scan of a table loaded in key order, 100 rows per key: one ascending "
                              "sweep over the blocks (55,556 at full size)" +
                                  aRange,
                              {Keys::Linear, 0}));
    entries.push_back(familyA("cyclic", "Cyclic / revisits",
                              "Index scan of a table whose keys repeat every 100,000 rows: 100 interleaved "
                              "sweeps, each block visited again 100 visits later" +
                                  aRange,
                              {Keys::Cyclic, 0}));
    for (const int percent : {1, 10, 25})
        entries.push_back(familyA("linear_" + std::to_string(percent), "Almost sorted",
                                  "Index scan of a table in key order with each key moved by random noise (" +
                                      std::to_string(percent) +
                                      " % of the key range): random inside a sliding window" + aRange,
                                  {Keys::Linear, static_cast<double>(percent)}));
    for (const int percent : {1, 10, 25})
        entries.push_back(familyA("cyclic_" + std::to_string(percent), "Random",
                                  "Index scan of the table whose keys repeat, with each key moved by random "
                                  "noise (" +
                                      std::to_string(percent) + " % of the key range): random in effect" +
                                      aRange,
                                  {Keys::Cyclic, static_cast<double>(percent)}));

    // Family B (§4), and (§5) the 2025 pgsql-hackers "index prefetching" thread's hash-clustered pair.
    for (const FamilyBRow& row : kFamilyB) {
        std::string description = row.description;
        if (const std::size_t at = description.find(kPages); at != std::string::npos)
            description.replace(at, kPages.size(), ", 21 rows per page (fillfactor 20)");
        entries.push_back(familyB(row.name, row.group, std::move(description), row.spec, row.scale));
    }

    // Family C (§5): workloads from the same thread.
    entries.push_back(tpcc("tpcc-order_line-pk",
                           "TPC-C order_line primary-key scan of 10 of 100 warehouses, 65 rows per page: "
                           "runs of 16 blocks interleaved between warehouses (8 loaders wrote 16-block "
                           "extents)",
                           16, kTpccBlocksDefault, kTpccBlocksPublished));
    entries.push_back(tpcc("tpcc-order_line-pk-e1",
                           "The TPC-C scan with 1-block extents: runs of single blocks, nothing to combine",
                           1, kTpccE1BlocksDefault, kTpccE1BlocksPublished));
    entries.push_back(
        {{"pgbench-ios-backward", "Backward",
          "Index-only scan of pgbench_accounts' primary key in descending order (ORDER BY aid DESC), 366 "
          "entries per index page, 90 M rows at full size: choose direction backward (forward is the "
          "ascending scan)",
          "none", kScalePgbench, pgbenchIndexBlocks(kScalePgbench), pgbenchIndexBlocks(1.0), false},
         0,
         [](const Build& build) {
             return makeVisitSource(generatePgbenchIndex(build.scale), build.direction);
         }});

    // Synthetic patterns of docs/read-stream-model.md §13, sized by `blocks`.
    entries.push_back(pattern("seq", "Every block in order, 0 to N-1 (backward: N-1 down to 0), none cached",
                              "none", sequential));
    entries.push_back(pattern("alternating",
                              "Every block in order with every second one cached: hit, miss, hit, miss, ...",
                              "every:2", sequential));
    entries.push_back(pattern(
        "sparse-miss:K", "Every block in order with all but every K-th one cached: a miss every K blocks",
        "except-every:K", sequential));
    entries.push_back(
        pattern("random", "Every block once, in random order, none cached", "none", [](const Build& build) {
            return makeRandomPattern(build.blocks, build.seed, build.direction);
        }));
    entries.push_back(pattern(
        "hash-groups",
        "Index scan of a hash-clustered table, 20 rows per page: groups of 8-16 rows in random order, "
        "one visit per row",
        "none",
        [](const Build& build) { return makeHashGroupsPattern(build.blocks, build.seed, build.direction); }));
    return entries;
}

const std::vector<Entry>& entries() {
    static const std::vector<Entry> all = buildEntries();
    return all;
}

std::string validNames() {
    std::string names;
    for (const Entry& entry : entries())
        names += (names.empty() ? "" : ", ") + entry.info.name;
    return names;
}

// "sparse-miss:16" -> 16; throws for a missing K or anything but a whole number >= 1.
std::uint64_t sparseMissPeriod(const std::string& name) {
    const std::string text = name.substr(name.find(':') + 1);
    std::uint64_t period = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), period);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || period == 0 ||
        period > kLargestPatternBlocks)
        throw InputError("'" + excerpt(name) + "': K must be a whole number 1.." +
                         std::to_string(kLargestPatternBlocks) +
                         " (every K-th block misses), e.g. sparse-miss:16");
    return period;
}

const Entry& findEntry(const std::string& name) {
    std::string key = name;
    if (name == "sparse-miss" || name.starts_with("sparse-miss:")) {
        sparseMissPeriod(name);
        key = "sparse-miss:K";
    }
    for (const Entry& entry : entries())
        if (entry.info.name == key)
            return entry;
    throw InputError("unknown dataset '" + excerpt(name) + "' (valid: " + validNames() + ")");
}

std::string formatNumber(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

} // namespace

const std::vector<DatasetInfo>& datasetCatalog() {
    static const std::vector<DatasetInfo> catalog = [] {
        std::vector<DatasetInfo> infos;
        for (const Entry& entry : entries())
            infos.push_back(entry.info);
        return infos;
    }();
    return catalog;
}

const DatasetInfo& findDataset(const std::string& name) {
    return findEntry(name).info;
}

std::string defaultPrewarmFor(const std::string& name) {
    const Entry& entry = findEntry(name);
    if (entry.info.name == "sparse-miss:K")
        return "except-every:" + std::to_string(sparseMissPeriod(name));
    return entry.info.defaultPrewarm;
}

std::unique_ptr<BlockSource> makeDataset(const DatasetRequest& request) {
    const Entry& entry = findEntry(request.name);
    const DatasetInfo& info = entry.info;
    Build build{request.scale, request.seed != 0 ? request.seed : entry.seed, request.direction,
                request.blocks};
    if (info.pattern) {
        if (build.blocks == 0)
            build.blocks = info.defaultBlocks;
        if (build.blocks > kLargestPatternBlocks)
            throw InputError("blocks " + std::to_string(build.blocks) + " is out of range for '" +
                             request.name + "': give 1.." + std::to_string(kLargestPatternBlocks) +
                             " (0 for the default " + std::to_string(info.defaultBlocks) + ")");
    } else {
        if (build.scale == 0.0)
            build.scale = info.defaultScale;
        if (!(build.scale >= kSmallestScale && build.scale <= 1.0))
            throw InputError("scale " + formatNumber(request.scale) + " is out of range for '" +
                             request.name + "': give a fraction of the published size in [" +
                             formatNumber(kSmallestScale) + ", 1], or 0 for the default " +
                             formatNumber(info.defaultScale));
    }
    return entry.make(build);
}

} // namespace la

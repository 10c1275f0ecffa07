// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_options.h"

#include "event.h"
#include "input_error.h"
#include "io_mode.h"
#include "io_worker_rules.h"
#include "mechanics.h"
#include "message_text.h"
#include "pg/index_batches.h"
#include "prewarm.h"
#include "registry.h"
#include "text_parse.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace la {

namespace {

// PostgreSQL's millisecond settings are ints.
constexpr std::uint64_t kMaxIoWorkerMs = 2'147'483'647;

std::string wholeText(std::uint64_t value, bool zeroIsUnset = true) {
    return zeroIsUnset && value == 0 ? std::string() : std::to_string(value);
}

std::string realText(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::string flagText(bool value) {
    return value ? "true" : "false";
}

std::uint64_t asWhole(const std::string& value) {
    std::uint64_t number = 0;
    parseUnsigned(value, number);
    return number;
}

double asReal(const std::string& value) {
    double number = 0.0;
    parseDouble(value, number);
    return number;
}

// The fields every kind of option has.
RunOption named(std::string_view name, std::string_view settingsKey, std::string_view jsonKey,
                OptionKind kind, std::string_view section, std::string_view valueName,
                std::string_view help) {
    RunOption o;
    o.name = name;
    o.settingsKey = settingsKey;
    o.jsonKey = jsonKey;
    o.kind = kind;
    o.section = section;
    o.valueName = valueName;
    o.help = help;
    return o;
}

RunOption whole(std::string_view name, std::string_view settingsKey, std::string_view jsonKey,
                std::string_view section, std::string_view help, std::uint64_t lo, std::uint64_t hi,
                std::function<std::string(const RunConfig&)> get,
                std::function<void(RunConfig&, std::uint64_t)> set) {
    RunOption o = named(name, settingsKey, jsonKey, OptionKind::Whole, section, "N", help);
    o.minWhole = lo;
    o.maxWhole = hi;
    o.get = std::move(get);
    o.set = [set = std::move(set)](RunConfig& c, const std::string& v) { set(c, asWhole(v)); };
    return o;
}

RunOption real(std::string_view name, std::string_view settingsKey, std::string_view jsonKey,
               std::string_view section, std::string_view valueName, std::string_view help, double lo,
               double hi, bool loExclusive, std::function<std::string(const RunConfig&)> get,
               std::function<void(RunConfig&, double)> set) {
    RunOption o = named(name, settingsKey, jsonKey, OptionKind::Real, section, valueName, help);
    o.minReal = lo;
    o.maxReal = hi;
    o.minExclusive = loExclusive;
    o.get = std::move(get);
    o.set = [set = std::move(set)](RunConfig& c, const std::string& v) { set(c, asReal(v)); };
    return o;
}

RunOption text(std::string_view name, std::string_view settingsKey, std::string_view jsonKey,
               std::string_view section, std::string_view valueName, std::string_view help,
               std::vector<std::string_view> choices, std::function<std::string(const RunConfig&)> get,
               std::function<void(RunConfig&, const std::string&)> set) {
    RunOption o = named(name, settingsKey, jsonKey, OptionKind::Text, section, valueName, help);
    o.choices = std::move(choices);
    o.get = std::move(get);
    o.set = std::move(set);
    return o;
}

// A text option kept as it is given, in the string `field` picks out of a config:
// `[](auto& c) -> auto& { return c.policy; }`, one accessor for reading and for writing.
template <typename Field>
RunOption textField(std::string_view name, std::string_view settingsKey, std::string_view jsonKey,
                    std::string_view section, std::string_view valueName, std::string_view help,
                    std::vector<std::string_view> choices, Field field) {
    return text(
        name, settingsKey, jsonKey, section, valueName, help, std::move(choices),
        [field](const RunConfig& c) { return std::string(field(c)); },
        [field](RunConfig& c, const std::string& v) { field(c) = v; });
}

// A whole number option in the field `field` picks out of a config (0: unset), as textField's.
template <typename Field>
RunOption wholeField(std::string_view name, std::string_view settingsKey, std::string_view jsonKey,
                     std::string_view section, std::string_view help, std::uint64_t lo, std::uint64_t hi,
                     Field field) {
    return whole(
        name, settingsKey, jsonKey, section, help, lo, hi,
        [field](const RunConfig& c) { return wholeText(field(c)); },
        [field](RunConfig& c, std::uint64_t v) { field(c) = v; });
}

RunOption flag(std::string_view name, std::string_view settingsKey, std::string_view jsonKey,
               std::string_view section, std::string_view help, bool StreamConfig::*field) {
    RunOption o = named(name, settingsKey, jsonKey, OptionKind::Flag, section, {}, help);
    o.get = [field](const RunConfig& c) { return flagText(c.stream.*field); };
    o.set = [field](RunConfig& c, const std::string& v) { c.stream.*field = v == "true"; };
    return o;
}

// The percentage (spacing = false) or the spacing of a "misses:PCT:SPACING" cache state; "" otherwise.
std::string missPart(const std::string& prewarm, bool spacing) {
    if (!prewarm.starts_with("misses:"))
        return {};
    const std::string rest = prewarm.substr(7);
    const auto colon = rest.find(':');
    if (!spacing)
        return rest.substr(0, colon);
    return colon == std::string::npos ? "even" : rest.substr(colon + 1);
}

std::string missesSpec(const std::string& percent, const std::string& spacing) {
    std::string spec = "misses:";
    spec += percent.empty() ? "0" : percent;
    spec += ':';
    spec += spacing.empty() ? "even" : spacing;
    return spec;
}

// The stream flags by the names --stream-flags takes, in the order it prints them.
struct StreamFlagName {
    std::string_view name;
    bool StreamConfig::*field;
};
constexpr StreamFlagName kStreamFlags[] = {{"full", &StreamConfig::fullFlag},
                                           {"sequential", &StreamConfig::sequentialFlag},
                                           {"maintenance", &StreamConfig::maintenanceFlag},
                                           {"batching", &StreamConfig::batchingFlag}};

std::string streamFlagsText(const StreamConfig& stream) {
    std::string text;
    for (const StreamFlagName& flag : kStreamFlags) {
        if (!(stream.*flag.field))
            continue;
        if (!text.empty())
            text += ',';
        text.append(flag.name);
    }
    return text;
}

// "full,sequential": each name once at most; "none" or nothing for no flags.
void setStreamFlags(StreamConfig& stream, const std::string& value) {
    StreamConfig parsed;
    if (!value.empty() && value != "none") {
        for (std::size_t from = 0; from <= value.size();) {
            const std::size_t comma = std::min(value.find(',', from), value.size());
            const std::string_view name = std::string_view(value).substr(from, comma - from);
            from = comma + 1;
            const auto* flag = std::find_if(std::begin(kStreamFlags), std::end(kStreamFlags),
                                            [&](const StreamFlagName& f) { return f.name == name; });
            if (flag == std::end(kStreamFlags) || parsed.*flag->field) {
                const bool known = flag != std::end(kStreamFlags);
                throw InputError(joined(
                    {"--stream-flags '", excerpt(value), "': ", known ? "flag '" : "unknown flag '",
                     excerpt(std::string(name)), known ? "' given twice" : "'",
                     "; choose from full, sequential, maintenance and batching, separated by commas"}));
            }
            parsed.*flag->field = true;
        }
    }
    for (const StreamFlagName& flag : kStreamFlags)
        stream.*flag.field = parsed.*flag.field;
}

std::vector<std::string_view> mechanicsNames() {
    std::vector<std::string_view> names;
    for (const Mechanics* mechanics : mechanicsRegistry())
        names.emplace_back(mechanics->name);
    return names;
}

std::vector<RunOption> buildTable() {
    std::vector<RunOption> t;
    const char* const dataset = "Dataset";
    const char* const stream = "Read stream";
    const char* const io = "I/O";
    t.push_back(textField(
        "dataset", "dataset", "dataset", dataset, "NAME",
        "preset or pattern ({default}; see --list-datasets)", {},
        [](auto& c) -> auto& { return c.dataset.name; }));
    t.back().defaultValue = "sparse-miss:16";
    t.push_back(textField(
        "blocks", "blockList", "blocks_file", dataset, "FILE",
        "scan a block list instead (one block per line, # comments, or CSV with a block column;\n"
        "'reset' between blocks resets the stream there)",
        {}, [](auto& c) -> auto& { return c.blockList; }));
    t.push_back(wholeField(
        "relation-blocks", "relationBlocks", "relation_blocks", dataset,
        "the size of a block list's relation in blocks, which decides its buffer strategy\n"
        "(default: its highest block + 1)",
        1, 1ULL << 32, [](auto& c) -> auto& { return c.relationBlocks; }));
    t.push_back(wholeField(
        "pattern-blocks", "patternBlocks", "pattern_blocks", dataset,
        "relation size of a pattern in blocks (default 65536; with --file, the file's size)", 1, 1ULL << 31,
        [](auto& c) -> auto& { return c.dataset.blocks; }));
    t.push_back(real(
        "scale", "scale", "scale", dataset, "S",
        "fraction of the preset's published size (default: the preset's small default)", 0.0, 1.0, true,
        [](const RunConfig& c) { return c.dataset.scale > 0.0 ? realText(c.dataset.scale) : std::string(); },
        [](RunConfig& c, double v) { c.dataset.scale = v; }));
    t.push_back(text(
        "direction", "direction", "direction", dataset, "D", "forward (default) or backward",
        {"forward", "backward"}, [](const RunConfig& c) { return directionName(c.dataset.direction); },
        [](RunConfig& c, const std::string& v) {
            c.dataset.direction = directionNamed(v).value_or(Direction::Forward);
        }));
    t.push_back(whole(
        "seed", "seed", "seed", dataset, "dataset and device seed", 0, ~0ULL,
        [](const RunConfig& c) { return wholeText(c.dataset.seed, false); },
        [](RunConfig& c, std::uint64_t v) {
            c.dataset.seed = v;
            c.device.seed = v;
        }));
    // A real PostgreSQL index scan (docs/pg-relations.md).
    t.push_back(textField(
        "pg-index", "pgIndex", "pg_index", dataset, "FILE",
        "scan a real PostgreSQL btree index (its first segment file, read-only) for the heap\n"
        "visit order; with --pg-heap",
        {}, [](auto& c) -> auto& { return c.pg.index; }));
    t.push_back(textField(
        "pg-heap", "pgHeap", "pg_heap", dataset, "FILE",
        "the index's table (its first segment file): the relation scanned, read-only", {},
        [](auto& c) -> auto& { return c.pg.heap; }));
    t.push_back(textField(
        "pg-datadir", "pgDatadir", "pg_datadir", dataset, "DIR",
        "a data directory: relative --pg-index/--pg-heap paths are under it, as\n"
        "SELECT pg_relation_filepath('t'), pg_relation_filepath('idx') prints them",
        {}, [](auto& c) -> auto& { return c.pg.dataDir; }));
    t.push_back(textField(
        "pg-key", "pgKey", "pg_key", dataset, "T",
        "types of the index's leading columns, comma-separated: int2, int4, int8, date,\n"
        "timestamp, timestamptz (written in UTC), uuid, text or varchar (default int8)",
        {}, [](auto& c) -> auto& { return c.pg.keyType; }));
    t.push_back(textField(
        "pg-key-range", "pgKeyRange", "pg_key_range", dataset, "LO:HI",
        "the scan's a BETWEEN LO AND HI (or a = V) on the leading column, a condition per\n"
        "column comma-separated, each written as PostgreSQL prints the type, e.g. 5,10:20\n"
        "or 2024-01-01:2024-01-31 12:00:00 (default: the whole index)",
        {}, [](auto& c) -> auto& { return c.pg.keyRange; }));
    t.push_back(textField(
        "pg-collation", "pgCollation", "pg_collation", dataset, "C",
        "the collation of the index's text columns, which its files do not record: C or\n"
        "POSIX (byte order, the only ones read offline)",
        {}, [](auto& c) -> auto& { return c.pg.collation; }));
    t.push_back(text(
        "index-batches", "indexBatches", "index_batches", dataset, "M",
        "continue (default: one stream across leaf pages), reset (the stream resets at every\n"
        "leaf page, as the 2025 \"simple\" prefetch patch did) or ring[:N] (one stream, paused\n"
        "while N leaf pages are open, default 64; it starts at the 4th heap block change)",
        {}, [](const RunConfig& c) { return pg::indexBatchingText(c.pg.batching); },
        [](RunConfig& c, const std::string& v) {
            c.pg.batching = pg::parseIndexBatching(v, "index-batches");
        }));
    t.push_back(text(
        "compare-index-batches", "compareIndexBatches", "compare_index_batches", dataset, "M",
        "run B with these index batches (continue, reset or ring[:N]), all else as A", {},
        [](const RunConfig& c) {
            return c.pg.compareBatching ? pg::indexBatchingText(*c.pg.compareBatching) : std::string();
        },
        [](RunConfig& c, const std::string& v) {
            if (v.empty())
                c.pg.compareBatching.reset();
            else
                c.pg.compareBatching = pg::parseIndexBatching(v, "compare-index-batches");
        }));
    t.push_back(wholeField(
        "stream-start-after", "streamStartAfter", "stream_start_after", dataset,
        "the first N blocks (heap visits) are read one by one by the backend before the stream\n"
        "starts; EXPLAIN counts the stream alone (default 0; ring: 4)",
        0, 1ULL << 32, [](auto& c) -> auto& { return c.pg.streamStartAfter; }));
    t.push_back(textField(
        "pg-checksums", "pgChecksums", "pg_checksums", dataset, "M",
        "verify data checksums: auto (default: if the index's metapage has one), on or off",
        {"auto", "on", "off"}, [](auto& c) -> auto& { return c.pg.checksums; }));
    t.push_back(textField(
        "policy", "policy", "policy", stream, "P", "distance policy ({default}); see the list below", {},
        [](auto& c) -> auto& { return c.policy; }));
    t.push_back(textField(
        "compare-policy", "comparePolicy", "compare_policy", stream, "P2",
        "run a second policy on the same dataset and cache state (A/B)", {},
        [](auto& c) -> auto& { return c.comparePolicy; }));
    t.push_back(textField(
        "mechanics", "mechanics", "mechanics", stream, "M",
        "whose read-stream mechanics run the policy (default: the policy's own)", mechanicsNames(),
        [](auto& c) -> auto& { return c.mechanics; }));
    t.push_back(whole(
        "eic", "eic", "eic", stream, "effective_io_concurrency ({default})", 0, 1000,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.stream.effectiveIoConcurrency), false); },
        [](RunConfig& c, std::uint64_t v) { c.stream.effectiveIoConcurrency = int(v); }));
    t.push_back(whole(
        "io-combine-limit", "ioCombineLimit", "io_combine_limit", stream,
        "blocks per combined read ({default} = 128 KiB)", 1, 128,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.stream.ioCombineLimit), false); },
        [](RunConfig& c, std::uint64_t v) { c.stream.ioCombineLimit = int(v); }));
    t.push_back(whole(
        "max-pinned", "maxPinned", "max_pinned_override", stream,
        "override max_pinned_buffers (default: as the mechanics compute it)", 1, 32767,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.stream.maxPinnedOverride)); },
        [](RunConfig& c, std::uint64_t v) { c.stream.maxPinnedOverride = int(v); }));
    t.push_back(wholeField(
        "shared-buffers", "sharedBuffers", "shared_buffers", stream,
        "the server's shared buffers in blocks, exactly: a cache state that does not fit is\n"
        "refused (default 16384, grown to hold the cache state, with a note saying so)",
        16, 1ULL << 31, [](auto& c) -> auto& { return c.poolBlocks; }));
    t.push_back(text(
        "strategy", "strategy", "strategy", stream, "S",
        "buffer access strategy: auto (default: as PostgreSQL decides, a BULKREAD ring for a\n"
        "sequential scan, READ_STREAM_SEQUENTIAL in the stream's flags, of a relation above\n"
        "shared_buffers / 4), none (the main pool) or bulkread (docs/read-stream-model.md §14)",
        {"auto", "none", "bulkread"},
        [](const RunConfig& c) { return std::string(strategyChoiceName(c.strategy)); },
        [](RunConfig& c, const std::string& v) {
            c.strategy = strategyChoiceNamed(v).value_or(StrategyChoice::Auto);
        }));
    t.push_back(whole(
        "max-connections", "maxConnections", "max_connections", stream,
        "max_connections, for the per-backend pin limit ({default})", 1, 262143,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.stream.maxConnections), false); },
        [](RunConfig& c, std::uint64_t v) { c.stream.maxConnections = int(v); }));
    t.push_back(textField(
        "prewarm", "prewarm", "prewarm", stream, "SPEC",
        "cache state: none, all, every:K, except-every:K, fraction:P:SEED, misses:PCT:SPACING,\nlist:FILE",
        {}, [](auto& c) -> auto& { return c.prewarm; }));
    // Both rewrite --prewarm as misses:PCT:SPACING, so a sweep can vary the two as separate axes.
    t.push_back(real(
        "miss-fraction", "missFraction", "miss_fraction", stream, "PCT",
        "cache state: PCT % of the blocks not cached, spaced by --miss-spacing (sets --prewarm)", 0.0, 100.0,
        false, [](const RunConfig& c) { return missPart(c.prewarm, false); },
        [](RunConfig& c, double v) { c.prewarm = missesSpec(realText(v), missPart(c.prewarm, true)); }));
    t.push_back(text(
        "miss-spacing", "missSpacing", "miss_spacing", stream, "S",
        "how those misses lie: even (default), runs:L (L misses in a row) or random[:SEED]", {},
        [](const RunConfig& c) { return missPart(c.prewarm, true); },
        [](RunConfig& c, const std::string& v) {
            const std::string spec = missesSpec(missPart(c.prewarm, false), v);
            try {
                PrewarmSpec::parse(spec);
            } catch (const InputError&) {
                throw InputError(joined({"--miss-spacing '", excerpt(v),
                                         "': expected even, runs:L (L = 1..1000000) or random[:SEED]"}));
            }
            c.prewarm = spec;
        }));
    t.push_back(wholeField(
        "reset-every", "resetEvery", "reset_every", stream, "end and reset the stream every N blocks", 1,
        1ULL << 32, [](auto& c) -> auto& { return c.resetEvery; }));
    t.push_back(flag("restore-after-reset", "restoreAfterReset", "restore_after_reset", stream,
                     "keep the distance across resets (2024/2025 proposals)",
                     &StreamConfig::restoreAfterReset));
    t.push_back(flag("backward-combining", "backwardCombining", "backward_combining", stream,
                     "what if: a descending run read as one I/O, each read handed back as it\n"
                     "completes (CF 7035 itself reads the whole run first: --policy cf7035)",
                     &StreamConfig::backwardCombining));
    t.push_back(text(
        "stream-flags", "streamFlags", "stream_flags", stream, "F,...",
        "flags the stream is opened with, as PostgreSQL's callers set them, comma-separated:\n"
        "full (READ_STREAM_FULL: start at the full distance, for callers reading everything),\n"
        "sequential (READ_STREAM_SEQUENTIAL: no advice), maintenance (READ_STREAM_MAINTENANCE:\n"
        "max_ios from --maintenance-io-concurrency), batching (READ_STREAM_USE_BATCHING);\n"
        "default none",
        {}, [](const RunConfig& c) { return streamFlagsText(c.stream); },
        [](RunConfig& c, const std::string& v) { setStreamFlags(c.stream, v); }));
    t.push_back(whole(
        "maintenance-io-concurrency", "maintenanceIoConcurrency", "maintenance_io_concurrency", stream,
        "maintenance_io_concurrency, for --stream-flags maintenance ({default})", 0, 1000,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.stream.maintenanceIoConcurrency), false); },
        [](RunConfig& c, std::uint64_t v) { c.stream.maintenanceIoConcurrency = int(v); }));
    t.push_back(whole(
        "other-pins", "otherPins", "other_pins", stream,
        "buffers the backend holds pinned besides the stream's and its consumer's (another\n"
        "scan's): PG18+ count them against its pin limit before every read, PG17 at the start\n"
        "(default 0)",
        0, 32767, [](const RunConfig& c) { return wholeText(std::uint64_t(c.stream.otherPins)); },
        [](RunConfig& c, std::uint64_t v) { c.stream.otherPins = int(v); }));
    t.push_back(text(
        "io", "io", "io", io, "M",
        "sim (default: the simulated device), or real reads of a real file: sync (pread by the\n"
        "consumer), worker (a pool of pread threads) or io_uring; a dataset is first written to its\n"
        "file in the cache directory, every page verified",
        {"sim", "sync", "worker", "io_uring"},
        [](const RunConfig& c) { return std::string(ioModeName(c.io)); },
        [](RunConfig& c, const std::string& v) { c.io = *ioModeNamed(v); }));
    t.back().aliases = {"uring"};
    t.push_back(textField(
        "file", "file", "file", io, "PATH",
        "real I/O: scan this file (any readable regular file, read-only, not verified) as a\n"
        "relation of 8 KiB blocks, with a pattern (sized to the file) or --blocks",
        {}, [](auto& c) -> auto& { return c.file; }));
    RunOption direct;
    direct.name = "direct";
    direct.negation = "buffered";
    direct.settingsKey = "directIo";
    direct.jsonKey = "direct";
    direct.kind = OptionKind::Flag;
    direct.section = io;
    direct.help = "O_DIRECT (default for real I/O; falls back to buffered if refused) or the page\n"
                  "cache (the simulated device's default); governs advice on both";
    direct.get = [](const RunConfig& c) { return c.directIo ? flagText(*c.directIo) : std::string(); };
    direct.set = [](RunConfig& c, const std::string& v) { c.directIo = v == "true"; };
    t.push_back(std::move(direct));
    t.push_back(text(
        "os-cache", "osCache", "os_cache", io, "S",
        "real I/O: cold (default: evict the file from the OS page cache first) or warm", {"cold", "warm"},
        [](const RunConfig& c) { return c.osCacheCold ? "cold" : "warm"; },
        [](RunConfig& c, const std::string& v) { c.osCacheCold = v == "cold"; }));
    // The I/O workers of io_method=worker (--io worker, and --io sim with --sim-io-method worker):
    // PostgreSQL 18's fixed pool, PostgreSQL 19's growing one (docs/mechanics.md, "I/O workers").
    t.push_back(whole(
        "io-workers", "ioWorkers", "io_workers", io,
        "PG18 mechanics: a fixed pool of N I/O workers for io_method=worker (--io worker,\n"
        "--sim-io-method worker; {default}, io_workers)",
        1, kMaxIoWorkers, [](const RunConfig& c) { return wholeText(std::uint64_t(c.ioWorkers), false); },
        [](RunConfig& c, std::uint64_t v) { c.ioWorkers = int(v); }));
    t.push_back(whole(
        "io-min-workers", "ioMinWorkers", "io_min_workers", io,
        "PG19 mechanics: I/O workers the pool starts with and keeps ({default},\nio_min_workers)", 1,
        kMaxIoWorkers, [](const RunConfig& c) { return wholeText(std::uint64_t(c.ioMinWorkers), false); },
        [](RunConfig& c, std::uint64_t v) { c.ioMinWorkers = int(v); }));
    t.push_back(whole(
        "io-max-workers", "ioMaxWorkers", "io_max_workers", io,
        "PG19 mechanics: most I/O workers the pool grows to ({default}, io_max_workers)", 1, kMaxIoWorkers,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.ioMaxWorkers), false); },
        [](RunConfig& c, std::uint64_t v) { c.ioMaxWorkers = int(v); }));
    t.push_back(whole(
        "io-worker-launch-interval", "ioWorkerLaunchInterval", "io_worker_launch_interval", io,
        "PG19 mechanics: ms between two I/O worker launches ({default},\n"
        "io_worker_launch_interval)",
        0, kMaxIoWorkerMs,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.ioWorkerLaunchIntervalMs), false); },
        [](RunConfig& c, std::uint64_t v) { c.ioWorkerLaunchIntervalMs = std::int64_t(v); }));
    t.push_back(whole(
        "io-worker-idle-timeout", "ioWorkerIdleTimeout", "io_worker_idle_timeout", io,
        "PG19 mechanics: ms an idle I/O worker above the minimum waits before it exits\n"
        "({default}, io_worker_idle_timeout)",
        0, kMaxIoWorkerMs,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.ioWorkerIdleTimeoutMs), false); },
        [](RunConfig& c, std::uint64_t v) { c.ioWorkerIdleTimeoutMs = std::int64_t(v); }));
    t.push_back(textField(
        "cache-dir", "cacheDir", "cache_dir", io, "DIR",
        "where dataset files go (default $XDG_CACHE_HOME/lookahead/datasets)", {},
        [](auto& c) -> auto& { return c.cacheDir; }));
    t.push_back(text(
        "sim-io-method", "simIoMethod", "sim_io_method", io, "M",
        "--io sim: what the simulated reads behave like: worker (default), io_uring or sync",
        {"sync", "worker", "io_uring"},
        [](const RunConfig& c) { return std::string(ioMethodName(c.stream.ioMethod)); },
        [](RunConfig& c, const std::string& v) { c.stream.ioMethod = *ioMethodNamed(v); }));
    t.back().aliases = {"uring"};
    t.push_back(real(
        "latency-us", "latencyUs", "latency_us", io, "X", "simulated latency of one 8 KiB read ({default})",
        0.0, 1e7, false,
        [](const RunConfig& c) {
            return realText(static_cast<double>(c.device.baseLatencyNs + c.device.perBlockNs) / 1000.0);
        },
        [](RunConfig& c, double us) {
            // A third of it is per-block transfer, as in the defaults.
            const std::int64_t ns = std::llround(us * 1000.0);
            c.device.perBlockNs = ns / 3;
            c.device.baseLatencyNs = ns - c.device.perBlockNs;
        }));
    t.push_back(whole(
        "device-parallelism", "deviceParallelism", "device_parallelism", io,
        "requests the simulated device serves at once ({default})", 1, 4096,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.device.parallelism), false); },
        [](RunConfig& c, std::uint64_t v) { c.device.parallelism = int(v); }));
    t.push_back(real(
        "jitter", "jitter", "jitter", io, "F", "random spread of simulated latencies, 0..0.99 ({default})",
        0.0, 0.99, false, [](const RunConfig& c) { return realText(c.device.jitter); },
        [](RunConfig& c, double v) { c.device.jitter = v; }));
    t.push_back(textField(
        "device-profile", "deviceProfile", "device_profile", io, "FILE",
        "--io sim: behave like the disk `lookahead calibrate` measured (its latency distribution\n"
        "by queue depth, its parallelism); replaces --latency-us, --device-parallelism, --jitter",
        {}, [](auto& c) -> auto& { return c.deviceProfile; }));
    t.push_back(whole(
        "submit-ns", "submitNs", "submit_ns", io,
        "--io sim: consumer CPU to start one asynchronous read (an io_uring submission, waking a\n"
        "worker; {default}); docs/simulated-device.md",
        0, 1'000'000'000,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.device.submitNs), false); },
        [](RunConfig& c, std::uint64_t v) { c.device.submitNs = std::int64_t(v); }));
    t.push_back(whole(
        "consumer-ns", "consumerNs", "consumer_ns", io,
        "consumer CPU per block ({default}, as in a replay of PostgreSQL; real I/O spends it on the CPU)", 0,
        1'000'000'000,
        [](const RunConfig& c) {
            return c.consumerNs < 0 ? std::to_string(c.consumerNs)
                                    : wholeText(std::uint64_t(c.consumerNs), false);
        },
        [](RunConfig& c, std::uint64_t v) { c.consumerNs = std::int64_t(v); }));
    t.push_back(whole(
        "repeat", "repeat", "repeat", io,
        "real I/O: run A and B N times each, interleaved (A B B A ...), and judge their difference\n"
        "against the noise ({default}; 5 or more for a verdict; docs/repeats.md)",
        1, kMaxRepeat, [](const RunConfig& c) { return wholeText(std::uint64_t(c.repeat), false); },
        [](RunConfig& c, std::uint64_t v) { c.repeat = int(v); }));
    t.push_back(whole(
        "collapse-window", "collapseWindow", "collapse_window", "Output",
        "misses at distance <= 2 that make a collapse ({default})", 1, 1 << 30,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.collapseWindow), false); },
        [](RunConfig& c, std::uint64_t v) { c.collapseWindow = int(v); }));
    t.push_back(whole(
        "shown-stream", "shownStream", "shown_stream", "Output",
        "a plan run (a block list of several streams, docs/plan-runs.md): the stream the plots\n"
        "draw ({default}); the summary gives every stream's figures",
        0, kMaxPlanStreams - 1,
        [](const RunConfig& c) { return wholeText(std::uint64_t(c.shownStream), false); },
        [](RunConfig& c, std::uint64_t v) { c.shownStream = std::uint8_t(v); }));
    return t;
}

std::string expected(const RunOption& o) {
    switch (o.kind) {
    case OptionKind::Whole:
        return "expected a whole number " + std::to_string(o.minWhole) + ".." + std::to_string(o.maxWhole);
    case OptionKind::Real:
        return std::string("expected a number ") + (o.minExclusive ? "more than " : "from ") +
               realText(o.minReal) + (o.minExclusive ? " and at most " : " to ") + realText(o.maxReal);
    case OptionKind::Flag:
        return "expected true or false";
    case OptionKind::Text:
        break;
    }
    std::string list;
    for (std::size_t i = 0; i < o.choices.size(); ++i)
        list += (i == 0 ? "" : i + 1 == o.choices.size() ? " or " : ", ") + std::string(o.choices[i]);
    return "choose " + list;
}

// Whether `value` is acceptable for `o`.
bool accepts(const RunOption& o, const std::string& value) {
    switch (o.kind) {
    case OptionKind::Whole: {
        std::uint64_t n = 0;
        return parseUnsigned(value, n) && n >= o.minWhole && n <= o.maxWhole;
    }
    case OptionKind::Real: {
        double x = 0.0;
        return parseDouble(value, x) && (o.minExclusive ? x > o.minReal : x >= o.minReal) && x <= o.maxReal;
    }
    case OptionKind::Flag:
        return value == "true" || value == "false";
    case OptionKind::Text:
        break;
    }
    const auto in = [&](const std::vector<std::string_view>& list) {
        return std::find(list.begin(), list.end(), value) != list.end();
    };
    return o.choices.empty() || in(o.choices) || in(o.aliases);
}

// RunConfig's defaults with each option's defaultValue set.
RunConfig defaultsOf(const std::vector<RunOption>& table) {
    RunConfig config;
    for (const RunOption& option : table)
        if (!option.defaultValue.empty())
            option.set(config, std::string(option.defaultValue));
    return config;
}

// Units of the numeric options, for the axes of sweep maps.
void addUnits(std::vector<RunOption>& table) {
    const std::pair<std::string_view, std::string_view> units[] = {{"pattern-blocks", "blocks"},
                                                                   {"io-combine-limit", "blocks"},
                                                                   {"max-pinned", "buffers"},
                                                                   {"shared-buffers", "blocks"},
                                                                   {"relation-blocks", "blocks"},
                                                                   {"miss-fraction", "%"},
                                                                   {"reset-every", "blocks"},
                                                                   {"latency-us", "\u00b5s"},
                                                                   {"consumer-ns", "ns"},
                                                                   {"submit-ns", "ns"},
                                                                   {"device-parallelism", "requests"},
                                                                   {"collapse-window", "misses"},
                                                                   {"stream-start-after", "visits"},
                                                                   {"io-workers", "workers"},
                                                                   {"io-min-workers", "workers"},
                                                                   {"io-max-workers", "workers"},
                                                                   {"io-worker-launch-interval", "ms"},
                                                                   {"io-worker-idle-timeout", "ms"},
                                                                   {"other-pins", "buffers"}};
    for (RunOption& option : table)
        for (const auto& [name, unit] : units)
            if (option.name == name)
                option.unit = unit;
}

// A help's "{default}" is the option's value in the default run: the help never restates a default.
void addDefaults(std::vector<RunOption>& table) {
    const RunConfig defaults = defaultsOf(table);
    constexpr std::string_view mark = "{default}";
    for (RunOption& option : table)
        if (const std::size_t at = option.help.find(mark); at != std::string::npos)
            option.help.replace(at, mark.size(), "default " + option.get(defaults));
}

std::vector<RunOption> tableWithUnits() {
    std::vector<RunOption> table = buildTable();
    addUnits(table);
    addDefaults(table);
    return table;
}

// The options that each pass alone but not together.
void checkOptionsTogether(const RunConfig& config) {
    if (config.relationBlocks > 0 && config.blockList.empty() && !config.blockSequence)
        throw InputError("--relation-blocks sizes a block list's relation (--blocks); a dataset's is "
                         "--pattern-blocks, an index scan's heap its file's");
    if (config.relationBlocks > 0 && !config.file.empty())
        throw InputError("--relation-blocks: the relation is a file here (--file, or the traced relation), "
                         "whose size is its own; leave --relation-blocks out");
    if (!config.pg.active())
        return;
    if (!config.blockList.empty() || config.blockSequence || !config.file.empty())
        throw InputError(
            "--pg-index/--pg-heap choose the blocks and the file; leave out --blocks and --file");
    if (config.pg.batching.mode == pg::IndexBatches::Ring && config.resetEvery > 0)
        throw InputError("--index-batches ring resets the stream only on a rescan; leave out --reset-every "
                         "(or use --index-batches continue)");
}

} // namespace

const std::vector<RunOption>& runOptions() {
    static const std::vector<RunOption> table = tableWithUnits();
    return table;
}

RunConfig defaultRunConfig() {
    return defaultsOf(runOptions());
}

const RunOption* findRunOption(std::string_view name) {
    for (const RunOption& option : runOptions())
        if (option.name == name || (!option.negation.empty() && option.negation == name))
            return &option;
    return nullptr;
}

void setRunOption(RunConfig& config, const RunOption& option, const std::string& value) {
    if (!accepts(option, value)) {
        std::string what = expected(option);
        if (option.name == "scale")
            what += " (leave --scale out for the preset's small default size)";
        throw InputError(std::string("--").append(option.name) + " '" + excerpt(value) + "': " + what);
    }
    option.set(config, value);
}

void validateRunConfig(const RunConfig& config) {
    for (const RunOption& option : runOptions()) {
        const std::string value = option.get(config);
        if (!value.empty() && !accepts(option, value))
            throw InputError(std::string("--").append(option.name) + " " + excerpt(value) +
                             " is out of range (" + expected(option) + ")");
    }
    checkOptionsTogether(config);
}

std::string runOptionsText(const RunConfig& config) {
    std::string text;
    for (const RunOption& option : runOptions()) {
        const std::string value = option.get(config);
        if (value.empty())
            continue;
        if (!text.empty())
            text += ' ';
        text.append(option.name);
        text += '=';
        text += value;
    }
    return text;
}

std::string helpEntry(std::string head, std::string_view help) {
    head.resize(std::max<std::size_t>(head.size() + 1, 26), ' ');
    std::string text(help);
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1))
        text.insert(at + 1, std::string(26, ' '));
    head.append(text).append("\n");
    return head;
}

std::string runOptionHelp(std::string_view section) {
    return sectionHelp(runOptions(), section, [](const RunOption& o) {
        // Appended piece by piece: `"literal" + std::string` trips GCC 12's -Wrestrict false positive at
        // -O3 (GCC bug 105329).
        std::string head = "  --";
        head.append(o.name);
        if (!o.negation.empty())
            head.append(", --").append(o.negation);
        if (o.kind != OptionKind::Flag)
            head.append(" ").append(o.valueName);
        return head;
    });
}

} // namespace la

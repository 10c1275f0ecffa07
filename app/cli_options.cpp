// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_options.h"

#include "input_error.h"
#include "message_text.h"
#include "text_parse.h"
#include "trace/trace_format.h"

#include <cstdio>

#include <functional>
#include <map>

namespace la {

namespace {

std::uint64_t wholeNumber(const std::string& option, const std::string& value, std::uint64_t min,
                          std::uint64_t max) {
    std::uint64_t number = 0;
    if (!parseUnsigned(value, number) || number < min || number > max)
        throw InputError("--" + option + " '" + excerpt(value) + "': expected a whole number " +
                         std::to_string(min) + ".." + std::to_string(max));
    return number;
}

std::string shortNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

double realNumber(const std::string& option, const std::string& value, double min, double max) {
    double number = 0.0;
    if (!parseDouble(value, number) || !(number >= min && number <= max))
        throw InputError("--" + option + " '" + excerpt(value) + "': expected a number from " +
                         shortNumber(min) + " to " + shortNumber(max));
    return number;
}

IoMethod ioMethodNamed(const std::string& value) {
    if (value == "sync")
        return IoMethod::Sync;
    if (value == "worker")
        return IoMethod::Worker;
    if (value == "io_uring" || value == "uring")
        return IoMethod::IoUring;
    throw InputError("--sim-io-method '" + excerpt(value) + "': choose sync, worker or io_uring");
}

} // namespace

CliOptions parseCommandLine(const std::vector<std::string>& args) {
    CliOptions o;
    RunConfig& r = o.run;
    r.dataset.name = "sparse-miss:16";

    std::string comparedBy;
    const auto compare = [&](Comparison comparison, const std::string& flag) {
        if (!comparedBy.empty() && comparedBy != flag)
            throw InputError(flag + " and " + comparedBy + " both say what run B changes; choose one");
        comparedBy = flag;
        o.comparison = comparison;
    };

    using Handler = std::function<void(const std::string&)>;
    const std::map<std::string, Handler> valued{
        {"dataset", [&](const std::string& v) { r.dataset.name = v; }},
        {"blocks", [&](const std::string& v) { r.blockList = v; }},
        {"file", [&](const std::string& v) { r.file = v; }},
        {"pattern-blocks",
         [&](const std::string& v) { r.dataset.blocks = wholeNumber("pattern-blocks", v, 1, 1ULL << 31); }},
        {"scale",
         [&](const std::string& v) {
             double scale = 0.0;
             if (!parseDouble(v, scale) || !(scale > 0.0 && scale <= 1.0))
                 throw InputError("--scale '" + excerpt(v) +
                                  "': expected a fraction of the preset's published size, more than 0 and at "
                                  "most 1 (leave --scale out for the preset's small default size)");
             r.dataset.scale = scale;
         }},
        {"direction",
         [&](const std::string& v) {
             if (v != "forward" && v != "backward")
                 throw InputError("--direction '" + excerpt(v) + "': choose forward or backward");
             r.dataset.direction = v == "forward" ? Direction::Forward : Direction::Backward;
         }},
        {"policy", [&](const std::string& v) { r.policy = v; }},
        {"compare-policy",
         [&](const std::string& v) {
             r.comparePolicy = v;
             compare(Comparison::Policy, "--compare-policy");
         }},
        {"io",
         [&](const std::string& v) {
             if (v != "sim" && v != "sync" && v != "worker" && v != "uring")
                 throw InputError("--io '" + excerpt(v) + "': choose sim, sync, worker or uring");
             r.io = v;
         }},
        {"eic",
         [&](const std::string& v) {
             r.stream.effectiveIoConcurrency = int(wholeNumber("eic", v, 0, 1000));
         }},
        {"io-combine-limit",
         [&](const std::string& v) {
             r.stream.ioCombineLimit = int(wholeNumber("io-combine-limit", v, 1, 128));
         }},
        {"max-pinned",
         [&](const std::string& v) {
             r.stream.maxPinnedOverride = int(wholeNumber("max-pinned", v, 1, 32767));
         }},
        {"shared-buffers",
         [&](const std::string& v) {
             r.poolBlocks = wholeNumber("shared-buffers", v, 16, 1ULL << 31);
             r.stream.sharedBuffers = r.poolBlocks;
         }},
        {"max-connections",
         [&](const std::string& v) {
             r.stream.maxConnections = int(wholeNumber("max-connections", v, 1, 10000));
         }},
        {"prewarm", [&](const std::string& v) { r.prewarm = v; }},
        {"reset-every",
         [&](const std::string& v) { r.resetEvery = wholeNumber("reset-every", v, 1, 1ULL << 32); }},
        {"latency-us",
         [&](const std::string& v) {
             // The latency of one 8 kB read; a third of it is per-block transfer, as in the defaults.
             const double ns = realNumber("latency-us", v, 0.0, 1e7) * 1000.0;
             r.device.baseLatencyNs = static_cast<std::int64_t>(ns * 2.0 / 3.0);
             r.device.perBlockNs = static_cast<std::int64_t>(ns / 3.0);
         }},
        {"consumer-ns",
         [&](const std::string& v) {
             r.consumerNs = std::int64_t(wholeNumber("consumer-ns", v, 0, 1'000'000'000));
         }},
        {"seed",
         [&](const std::string& v) {
             r.dataset.seed = wholeNumber("seed", v, 0, ~0ULL);
             r.device.seed = r.dataset.seed;
         }},
        {"jitter", [&](const std::string& v) { r.device.jitter = realNumber("jitter", v, 0.0, 0.99); }},
        {"device-parallelism",
         [&](const std::string& v) {
             r.device.parallelism = int(wholeNumber("device-parallelism", v, 1, 4096));
         }},
        {"sim-io-method", [&](const std::string& v) { r.stream.ioMethod = ioMethodNamed(v); }},
        {"os-cache",
         [&](const std::string& v) {
             if (v != "cold" && v != "warm")
                 throw InputError("--os-cache '" + excerpt(v) + "': choose cold or warm");
             r.osCacheCold = v == "cold";
         }},
        {"io-workers", [&](const std::string& v) { r.ioWorkers = int(wholeNumber("io-workers", v, 1, 64)); }},
        {"cache-dir", [&](const std::string& v) { r.cacheDir = v; }},
        {"collapse-window",
         [&](const std::string& v) {
             r.collapseWindow = int(wholeNumber("collapse-window", v, 1, 1 << 30));
         }},
        {"import-trace", [&](const std::string& v) { o.importTrace = v; }},
        {"trace-format",
         [&](const std::string& v) {
             traceFormatNamed(v); // refused here, before anything runs
             o.traceFormat = v;
         }},
        {"trace-relation", [&](const std::string& v) { o.traceRelation = v; }},
        {"summary-json", [&](const std::string& v) { o.summaryJson = v; }},
        {"trace-csv", [&](const std::string& v) { o.traceCsv = v; }},
        {"export-png",
         [&](const std::string& v) {
             o.exportPng = v;
             o.headless = true;
         }},
        {"png-size",
         [&](const std::string& v) {
             const auto x = v.find_first_of("xX");
             if (x == std::string::npos)
                 throw InputError("--png-size '" + excerpt(v) + "': expected WIDTHxHEIGHT, e.g. 1600x1000");
             o.pngWidth = int(wholeNumber("png-size", v.substr(0, x), 16, 16384));
             o.pngHeight = int(wholeNumber("png-size", v.substr(x + 1), 16, 16384));
         }},
    };
    const std::map<std::string, std::function<void()>> flags{
        {"headless", [&] { o.headless = true; }},
        {"list-datasets", [&] { o.listDatasets = true; }},
        {"help", [&] { o.help = true; }},
        {"version", [&] { o.version = true; }},
        {"run", [&] { o.startRun = true; }},
        {"restore-after-reset", [&] { r.stream.restoreAfterReset = true; }},
        {"backward-combining", [&] { r.stream.backwardCombining = true; }},
        {"compare-direction", [&] { compare(Comparison::Direction, "--compare-direction"); }},
        {"compare-backward-combining",
         [&] { compare(Comparison::BackwardCombining, "--compare-backward-combining"); }},
        {"sequential-flag", [&] { r.stream.sequentialFlag = true; }},
        {"direct", [&] { r.directIo = true; }},
        {"buffered", [&] { r.directIo = false; }},
    };

    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg == "-h")
            arg = "--help";
        if (!arg.starts_with("--"))
            throw InputError("unexpected argument '" + excerpt(arg) +
                             "' (options start with --; see --help)");
        std::string name = arg.substr(2);
        std::string value;
        bool inlineValue = false;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inlineValue = true;
        }
        if (const auto flag = flags.find(name); flag != flags.end()) {
            if (inlineValue)
                throw InputError("--" + name + " takes no value");
            flag->second();
        } else if (const auto option = valued.find(name); option != valued.end()) {
            if (!inlineValue) {
                if (i + 1 >= args.size())
                    throw InputError("--" + name + " needs a value (see --help)");
                value = args[++i];
            }
            option->second(value);
        } else {
            throw InputError("unknown option '--" + excerpt(name) + "' (see --help)");
        }
        o.given.push_back(name);
    }
    return o;
}

std::string usageText() {
    return R"(Usage: lookahead [options]            open the window (options preconfigure it)
       lookahead --headless [options] run without a window and print the summary

Dataset
  --dataset NAME          preset or pattern (default sparse-miss:16; see --list-datasets)
  --blocks FILE           scan a block list instead (one block per line, # comments, or CSV with a block column)
  --pattern-blocks N      relation size of a pattern in blocks (default 65536; with --file, the file's size)
  --scale S               fraction of the preset's published size (default: the preset's small default)
  --direction D           forward (default) or backward
  --seed S                dataset and device seed
  --list-datasets         print every preset and pattern with its description and default size
Read stream
  --policy P              pg17, pg18 (default), pg19, fixed:N or adaptive
  --compare-policy P2     run a second policy on the same dataset and cache state (A/B)
  --compare-direction     run B in the other direction
  --compare-backward-combining
                          run B with --backward-combining toggled
  --eic N                 effective_io_concurrency (default 16)
  --io-combine-limit N    blocks per combined read (default 16 = 128 kB)
  --max-pinned N          override max_pinned_buffers
  --shared-buffers BLOCKS simulated shared buffers (default 16384, grown to hold the dataset's cache state)
  --max-connections N     max_connections, for the per-backend pin limit (default 100)
  --prewarm SPEC          none, all, every:K, except-every:K, fraction:P:SEED, list:FILE
  --reset-every N         end and reset the stream every N blocks
  --restore-after-reset   keep the distance across resets (2024/2025 proposals)
  --backward-combining    read descending runs as one ascending I/O (CF7035)
  --sequential-flag       READ_STREAM_SEQUENTIAL (no advice)
I/O
  --io M                  sim (default: the simulated device), or real reads of a real file: sync (pread
                          by the consumer), worker (a pool of pread threads) or uring (io_uring); a
                          dataset is first written to its file in the cache directory, every page verified
  --file PATH             real I/O: scan this file (any readable regular file, read-only, not verified) as a
                          relation of 8 kB blocks, with a pattern (sized to the file) or --blocks
  --direct, --buffered    real I/O: O_DIRECT (default; falls back to buffered if refused) or the page cache
  --os-cache S            real I/O: cold (default: evict the file from the OS page cache first) or warm
  --io-workers N          threads of --io worker (default 3, like PostgreSQL's io_workers)
  --cache-dir DIR         where dataset files go (default $XDG_CACHE_HOME/lookahead/datasets)
  --sim-io-method M       --io sim: what the simulated reads behave like: worker (default), io_uring or sync
  --latency-us X          simulated latency of one 8 kB read (default 66)
  --device-parallelism N  requests the simulated device serves at once (default 4)
  --jitter F              random spread of simulated latencies, 0..0.99 (default 0)
  --consumer-ns Y         consumer CPU per block (default 10000; real I/O spends it on the CPU)
Observed runs
  --import-trace FILE     import what PostgreSQL really read (strace -f -ttt -T -yy, perf trace, or a
                          --trace-csv file) and model the same blocks with --compare-policy (or --policy)
  --trace-format F        auto (default), strace, perf or lookahead-csv
  --trace-relation R      the file whose reads to import: a path (or its end, e.g. base/5/16390), or fd:N;
                          default the file read most
Output
  --summary-json FILE     write the run summary as JSON (schema lookahead.summary/1)
  --trace-csv FILE        write every event as CSV
  --export-png FILE       render the window's plots offscreen to a PNG (implies --headless)
  --png-size WxH          size of that PNG (default 1600x1000)
  --collapse-window W     misses at distance <= 2 that make a collapse (default 32)
  --run                   (window) start the run at once
  --help, --version
Environment
  LOOKAHEAD_DISABLE_IO_URING=1  --io uring falls back to the worker pool, as where io_uring is blocked
  LOOKAHEAD_DISABLE_O_DIRECT=1  O_DIRECT is refused at open (=read: the first O_DIRECT read is refused)
)";
}

} // namespace la

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/cli_options.h"

#include "input_error.h"
#include "message_text.h"
#include "observed/trace_format.h"
#include "registry.h"
#include "run_options.h"
#include "text_parse.h"

#include <algorithm>
#include <functional>

namespace la {

namespace {

// A plan of more nodes than this is no plan EXPLAIN prints.
constexpr std::uint64_t kMaxNodeId = 1'000'000;

// An option of the command line itself (what to do, where to write), not of the run: the run's
// options come from run_options.h.
struct CommandOption {
    const char* section; // of the help text
    const char* name;
    const char* valueName; // nullptr: a flag
    const char* help;
    std::function<void(CliOptions&, const std::string&)> apply;
};

std::uint64_t sideOf(const std::string& option, const std::string& value) {
    std::uint64_t side = 0;
    if (!parseUnsigned(value, side) || side < 16 || side > 16384)
        throw InputError("--" + option + " '" + excerpt(value) + "': expected WIDTHxHEIGHT, each 16..16384");
    return side;
}

// Both say what run B changes; at most one may.
void setComparison(CliOptions& o, Comparison comparison, const std::string& flag, std::string& comparedBy) {
    if (!comparedBy.empty() && comparedBy != flag)
        throw InputError(flag + " and " + comparedBy + " both say what run B changes; choose one");
    comparedBy = flag;
    o.comparison = comparison;
}

const std::vector<CommandOption>& commandOptions() {
    static const std::string formats = "auto (default), " + traceFormatChoices();
    static const std::vector<CommandOption> options{
        {"Observed runs", "import-trace", "FILE",
         "import what PostgreSQL really read (strace -f -ttt -T -yy, perf trace, or a\n"
         "--trace-csv file) and model the same blocks with --compare-policy (or --policy)",
         [](CliOptions& o, const std::string& v) { o.importTrace = v; }},
        {"Observed runs", "trace-format", "F", formats.c_str(),
         [](CliOptions& o, const std::string& v) {
             traceFormatNamed(v); // refused here, before anything runs
             o.traceFormat = v;
         }},
        {"Observed runs", "trace-relation", "R",
         "the file whose reads to import: a path (or its end, e.g. base/5/16390), or fd:N;\n"
         "default the file read most",
         [](CliOptions& o, const std::string& v) { o.traceRelation = v; }},
        {"Observed runs", "trace-backend", "PID",
         "the traced process that ran the scan: its own reads are its waits (default: the only\n"
         "process that read the relation; with I/O workers the trace cannot tell)",
         [](CliOptions& o, const std::string& v) {
             std::uint64_t pid = 0;
             // Linux's pid_max is at most 2^22.
             if (!parseUnsigned(v, pid) || pid == 0 || pid > 4194304)
                 throw InputError("--trace-backend '" + excerpt(v) + "' is not a process id (1 to 4194304)");
             o.traceBackend = static_cast<std::uint32_t>(pid);
         }},
        {"Observed runs", "explain", "FILE",
         "the traced query's EXPLAIN (ANALYZE, BUFFERS[, IO]) output, text or JSON as psql\n"
         "prints it: PostgreSQL's own figures beside the observed run (with --headless)",
         [](CliOptions& o, const std::string& v) { o.explain = v; }},
        {"Output", "headless", nullptr, "run without a window and print the summary",
         [](CliOptions& o, const std::string&) { o.headless = true; }},
        {"Output", "list-datasets", nullptr,
         "print every preset and pattern with its description and default size",
         [](CliOptions& o, const std::string&) { o.listDatasets = true; }},
        {"Output", "summary-json", "FILE", "write the run summary as JSON (schema lookahead.summary/1)",
         [](CliOptions& o, const std::string& v) { o.outputs.summaryJson = v; }},
        {"Output", "trace-csv", "FILE", "write every event as CSV",
         [](CliOptions& o, const std::string& v) { o.outputs.traceCsv = v; }},
        {"Output", "cache-after", "FILE",
         "write the relation's blocks in the model's shared buffers after the run, one per line\n"
         "(the first modelled run's): the next run starts from them with --prewarm list:FILE",
         [](CliOptions& o, const std::string& v) { o.outputs.cacheAfter = v; }},
        {"Output", "export-png", "FILE", "render the window's plots offscreen to a PNG (implies --headless)",
         [](CliOptions& o, const std::string& v) {
             o.outputs.exportPng = v;
             o.headless = true;
         }},
        {"Output", "export-svg", "FILE", "the same as an SVG vector drawing (implies --headless)",
         [](CliOptions& o, const std::string& v) {
             o.outputs.exportSvg = v;
             o.headless = true;
         }},
        {"Output", "export-pdf", "FILE", "the same as a PDF page (implies --headless)",
         [](CliOptions& o, const std::string& v) {
             o.outputs.exportPdf = v;
             o.headless = true;
         }},
        {"Output", "png-size", "WxH",
         "size of the exported plots in pixels (default 1600x1000; a PDF page is that at 96 dpi)",
         [](CliOptions& o, const std::string& v) {
             const auto x = v.find_first_of("xX");
             if (x == std::string::npos)
                 throw InputError("--png-size '" + excerpt(v) + "': expected WIDTHxHEIGHT, e.g. 1600x1000");
             o.pngWidth = int(sideOf("png-size", v.substr(0, x)));
             o.pngHeight = int(sideOf("png-size", v.substr(x + 1)));
         }},
        {"Output", "sweep", "SPEC",
         "(window) open the Sweep view on a spec or preset (collapse-map); with --run, start it",
         [](CliOptions& o, const std::string& v) { o.sweep = v; }},
        {"Output", "save", "FILE", "write the runs, their summaries and provenance as a session (.lookahead)",
         [](CliOptions& o, const std::string& v) { o.outputs.save = v; }},
        {"Output", "open", "FILE",
         "(headless) a saved session instead of a new run: print its summaries, write\n"
         "--summary-json and the plot exports from it (no option of a run goes with it)",
         [](CliOptions& o, const std::string& v) { o.open = v; }},
        {"Output", "node", "ID",
         "with --open of a recording: the plan node (its node_id) the summaries and exports are\n"
         "of, refused, saying why, for a node the runs do not model; in the window, the node chosen",
         [](CliOptions& o, const std::string& v) {
             std::uint64_t node = 0;
             if (!parseUnsigned(v, node) || node > kMaxNodeId)
                 throw InputError("--node '" + excerpt(v) +
                                  "': give a node_id of the recorded plan (0 is its top node; the "
                                  "summary of --open lists the nodes)");
             o.node = int(node);
         }},
        {"Output", "run", nullptr, "(window) start the run at once",
         [](CliOptions& o, const std::string&) { o.startRun = true; }},
        {"Output", "help", nullptr, "this text", [](CliOptions& o, const std::string&) { o.help = true; }},
        {"Output", "version", nullptr, "the version",
         [](CliOptions& o, const std::string&) { o.version = true; }},
    };
    return options;
}

const CommandOption* findCommandOption(const std::string& name) {
    for (const CommandOption& option : commandOptions())
        if (name == option.name)
            return &option;
    return nullptr;
}

// One help line per policy: name, description and the mechanics it runs on by default.
std::string policyHelp() {
    std::string lines;
    for (const PolicyEntry& entry : policyRegistry())
        lines += "    " + (entry.name + std::string(22, ' ')).substr(0, 22) + entry.description + " (on " +
                 entry.mechanics->name + " mechanics)\n";
    return lines;
}

std::string commandHelp(std::string_view section) {
    return sectionHelp(commandOptions(), section, [](const CommandOption& o) {
        std::string head = std::string("  --").append(o.name); // GCC bug 105329, see run_options.cpp
        if (o.valueName)
            head.append(" ").append(o.valueName);
        return head;
    });
}

// The option's name and value: "--name value" or "--name=value".
struct Argument {
    std::string name;
    std::string value;
    bool inlineValue = false;
};

Argument split(std::string arg) {
    if (arg == "-h")
        arg = "--help";
    if (!arg.starts_with("--"))
        throw InputError("unexpected argument '" + excerpt(arg) + "' (options start with --; see --help)");
    Argument a;
    a.name = arg.substr(2);
    if (const auto eq = a.name.find('='); eq != std::string::npos) {
        a.value = a.name.substr(eq + 1);
        a.name = a.name.substr(0, eq);
        a.inlineValue = true;
    }
    return a;
}

// --import-trace's second run is the model of the trace, whose cache state the trace gives: an option
// that adds another run, or another cache state, would be ignored, so it is refused rather than
// dropped; the trace's options need a trace.
void refuseIgnoredOptions(const CliOptions& o) {
    for (const std::string& name : o.given) {
        const bool addsRun = name == "compare-direction" || name == "compare-backward-combining" ||
                             name == "compare-index-batches" || name == "compare-restore-after-reset";
        if (!o.importTrace.empty() && addsRun)
            throw InputError("--" + name +
                             " cannot be used with --import-trace, whose second run is the trace's model; "
                             "leave one out");
        // With the scan's visits, --prewarm is a snapshot of shared buffers at the start (as `record`
        // takes from pg_buffercache); without them the model replays the reads, every one a miss.
        if (!o.importTrace.empty() && name == "prewarm" && !visitsGiven(o))
            throw InputError("--prewarm with --import-trace needs the scan's visits (--blocks, --pg-index or "
                             "--dataset): without them the model replays the trace's reads, each a miss");
        if (o.importTrace.empty() && (name == "trace-format" || name == "trace-relation" ||
                                      name == "explain" || name == "trace-backend"))
            throw InputError("--" + name + " needs --import-trace FILE");
        // A measured device replaces the simulated one's fixed figures, which would be dropped.
        if (!o.run.deviceProfile.empty() &&
            (name == "latency-us" || name == "jitter" || name == "device-parallelism"))
            throw InputError("--" + name +
                             " cannot be used with --device-profile, whose measured latencies "
                             "and parallelism replace it; leave one out");
        // The session's runs are shown as they ran: nothing runs, so nothing a run takes applies.
        if (!o.open.empty() && (describesRun(name) || name == "import-trace" || name == "explain"))
            throw InputError("--" + name +
                             " cannot be used with --open, which shows the runs a session saved "
                             "as they ran; leave it out, or run without --open");
    }
    if (o.node && o.open.empty())
        throw InputError("--node chooses a node of a saved recording: give the session with --open "
                         "(to choose the node a recording models, give it to lookahead record)");
    // A profile is the simulated device's: a run with real I/O reads a real device.
    if (!o.run.deviceProfile.empty() && o.run.io != IoMode::Sim)
        throw InputError(joined({"--device-profile describes the simulated device (--io sim); with --io ",
                                 ioModeName(o.run.io),
                                 " the run reads a real file and would ignore it; leave "
                                 "one out"}));
}

} // namespace

bool visitsGiven(const CliOptions& options) {
    return std::any_of(options.given.begin(), options.given.end(), [](const std::string& name) {
        return name == "dataset" || name == "blocks" || name == "pg-index" || name == "pg-heap";
    });
}

ExperimentRequest experimentRequest(const CliOptions& options) {
    ExperimentRequest request;
    request.run = options.run;
    request.comparison = options.comparison;
    request.trace = {options.importTrace, traceFormatNamed(options.traceFormat), options.traceRelation,
                     options.traceBackend};
    request.explain = options.explain;
    request.visitsGiven = visitsGiven(options);
    request.recorded = options.recorded;
    return request;
}

std::vector<std::string> optionNames() {
    std::vector<std::string> names{"compare-direction", "compare-backward-combining",
                                   "compare-restore-after-reset"};
    for (const CommandOption& option : commandOptions())
        names.emplace_back(option.name);
    for (const RunOption& option : runOptions()) {
        names.emplace_back(option.name);
        if (!option.negation.empty())
            names.emplace_back(option.negation);
    }
    return names;
}

bool describesRun(const std::string& name) {
    return findCommandOption(name) == nullptr;
}

CliOptions parseCommandLine(const std::vector<std::string>& args) {
    CliOptions o;
    o.run = defaultRunConfig();
    o.commandLine = "lookahead";
    for (const std::string& arg : args)
        o.commandLine.append(" ").append(arg);
    std::string comparedBy;
    for (std::size_t i = 0; i < args.size(); ++i) {
        // `lookahead FILE.lookahead`, as a file manager starts us (the .desktop file's %f).
        if (!args[i].starts_with("-") && args[i].ends_with(".lookahead")) {
            o.open = args[i];
            continue;
        }
        Argument a = split(args[i]);
        const CommandOption* command = findCommandOption(a.name);
        const RunOption* option = command ? nullptr : findRunOption(a.name);
        const bool isFlag = a.name == "compare-direction" || a.name == "compare-backward-combining" ||
                            a.name == "compare-restore-after-reset" || (command && !command->valueName) ||
                            (option && option->kind == OptionKind::Flag);
        if (!command && !option && !isFlag)
            throw InputError("unknown option '--" + excerpt(a.name) + "' (see --help)");
        if (isFlag && a.inlineValue)
            throw InputError("--" + a.name + " takes no value");
        if (!isFlag && !a.inlineValue) {
            if (i + 1 >= args.size())
                throw InputError("--" + a.name + " needs a value (see --help)");
            a.value = args[++i];
        }
        if (a.name == "compare-direction")
            setComparison(o, Comparison::Direction, "--compare-direction", comparedBy);
        else if (a.name == "compare-backward-combining")
            setComparison(o, Comparison::BackwardCombining, "--compare-backward-combining", comparedBy);
        else if (a.name == "compare-restore-after-reset")
            setComparison(o, Comparison::RestoreAfterReset, "--compare-restore-after-reset", comparedBy);
        else if (command)
            command->apply(o, a.value);
        else
            setRunOption(o.run, *option, isFlag ? (a.name == option->negation ? "false" : "true") : a.value);
        // The run options that name what B runs also say what B changes.
        if (a.name == "compare-policy")
            setComparison(o, Comparison::Policy, "--compare-policy", comparedBy);
        else if (a.name == "compare-index-batches")
            setComparison(o, Comparison::IndexBatches, "--compare-index-batches", comparedBy);
        o.given.push_back(a.name);
    }
    refuseIgnoredOptions(o);
    return o;
}

std::string usageText() {
    return "Usage: lookahead [options]            open the window (options preconfigure it)\n"
           "       lookahead --headless [options] run without a window and print the summary\n"
           "       lookahead sweep SPEC --out DIR  a grid of headless runs (lookahead sweep --help)\n"
           "       lookahead calibrate --out FILE  measure this disk for --device-profile (calibrate "
           "--help)\n"
           "       lookahead record --query SQL   record a query on a live PostgreSQL server (record "
           "--help)\n"
           "       lookahead capture --out FILE   capture processes' reads for --import-trace (capture "
           "--help)\n"
           "       lookahead FILE.lookahead       open a saved session (--save FILE) in the "
           "window\n\nDataset\n" +
           runOptionHelp("Dataset") + "Read stream\n" + runOptionHelp("Read stream") +
           "  policies, each with the mechanics it runs on by default:\n" + policyHelp() +
           "  --compare-direction     run B in the other direction\n"
           "  --compare-backward-combining\n"
           "                          run B with --backward-combining toggled\n"
           "  --compare-restore-after-reset\n"
           "                          run B with --restore-after-reset toggled (the distance kept\n"
           "                          across resets: a nested loop's rescans, a block list's resets)\n"
           "I/O\n" +
           runOptionHelp("I/O") + "Observed runs\n" + commandHelp("Observed runs") + "Output\n" +
           runOptionHelp("Output") + commandHelp("Output") +
           "Environment\n"
           "  LOOKAHEAD_DISABLE_IO_URING=1  --io io_uring falls back to the worker pool, as where io_uring "
           "is "
           "blocked\n"
           "  LOOKAHEAD_DISABLE_O_DIRECT=1  O_DIRECT is refused at open (=read: the first O_DIRECT read is "
           "refused)\n";
}

} // namespace la

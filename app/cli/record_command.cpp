// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/record_command.h"

#include "cli/cli_options.h"
#include "cli/export_command.h"
#include "cli/import_command.h"
#include "cli/nearest_name.h"
#include "cli/run_command.h"
#include "experiment/command_outputs.h"
#include "experiment/signal_cancel.h"
#include "files/held_directory.h"
#include "files/output_file.h"
#include "input_error.h"
#include "message_text.h"
#include "record/recorder.h"
#include "registry.h"

#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace la {

namespace {

struct RecordArgs {
    RecordRequest request;
    std::vector<std::string> replayOptions; // the output and model options, for the replay
    QString workDirectory;
    bool clean = false;
    bool help = false;
};

// record's own options; any other "--name" must be one the replay takes.
const std::vector<std::string>& recordOptionNames() {
    static const std::vector<std::string> names{
        "help",           "conninfo", "query",  "cold",  "set", "visits-query",
        "compare-policy", "work-dir", "tracer", "clean", "node"};
    return names;
}

// Refuses an option neither record nor its replay takes, naming the nearest one.
void requireKnownOption(const std::string& arg) {
    const std::string name =
        arg.substr(2, arg.find('=') == std::string::npos ? std::string::npos : arg.find('=') - 2);
    std::vector<std::string> names = recordOptionNames();
    const std::vector<std::string> replay = optionNames();
    if (std::find(replay.begin(), replay.end(), name) != replay.end())
        return;
    names.insert(names.end(), replay.begin(), replay.end());
    const std::string near = nearestName(name, names);
    throw InputError(joined({"record: unknown option '--", excerpt(name), "'",
                             near.empty() ? std::string_view() : std::string_view(" (did you mean --"), near,
                             near.empty() ? std::string_view() : std::string_view("?)"),
                             "; see lookahead record --help"}));
}

RecordArgs parseArgs(const std::vector<std::string>& args) {
    RecordArgs parsed;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const auto value = [&]() -> QString {
            if (i + 1 >= args.size())
                throw InputError(joined({"record: ", arg, " needs a value (see lookahead record --help)"}));
            return QString::fromStdString(args[++i]);
        };
        if (arg == "--help" || arg == "-h")
            parsed.help = true;
        else if (arg == "--clean")
            parsed.clean = true;
        else if (arg == "--conninfo")
            parsed.request.conninfo = value();
        else if (arg == "--query")
            parsed.request.query = value();
        else if (arg == "--cold")
            parsed.request.cold = true;
        else if (arg == "--set") {
            const QString setting = value();
            if (setting.indexOf(QLatin1Char('=')) <= 0)
                throw InputError("record: --set '" + excerpt(setting.toStdString()) +
                                 "': expected NAME=VALUE, e.g. enable_bitmapscan=off");
            parsed.request.settings << setting;
        } else if (arg == "--node") {
            const QString id = value();
            bool ok = false;
            const int node = id.toInt(&ok);
            if (!ok || node < 0)
                throw InputError("record: --node '" + excerpt(id.toStdString()) +
                                 "': give a node_id of the plan (0 is its top node; the summary lists them)");
            parsed.request.node = node;
        } else if (arg == "--visits-query")
            parsed.request.visitsQuery = value();
        else if (arg == "--compare-policy")
            parsed.request.comparePolicy = value();
        else if (arg == "--work-dir")
            parsed.workDirectory = value();
        else if (arg == "--tracer") {
            const QString tracer = value();
            if (tracer == QLatin1String("kernel"))
                parsed.request.tracer = TracerKind::Kernel;
            else if (tracer == QLatin1String("strace"))
                parsed.request.tracer = TracerKind::Strace;
            else if (tracer != QLatin1String("auto"))
                throw InputError("record: --tracer '" + excerpt(tracer.toStdString()) +
                                 "': choose kernel, strace or auto");
        } else {
            if (arg.starts_with("--"))
                requireKnownOption(arg);
            parsed.replayOptions.push_back(arg);
        }
    }
    if (!parsed.help && !parsed.clean && parsed.request.query.isEmpty())
        throw InputError("record: give --query SQL (the query to record; see lookahead record --help)");
    return parsed;
}

// Everything the replay will be asked is checked before the server is touched: its options parse,
// and every output can be written (each opened as it will be, then let go unwritten).
void checkReplayOptions(const RecordArgs& parsed) {
    std::vector<std::string> replay{"--headless"};
    replay.insert(replay.end(), parsed.replayOptions.begin(), parsed.replayOptions.end());
    if (!parsed.request.comparePolicy.isEmpty())
        replay.insert(replay.end(), {"--compare-policy", parsed.request.comparePolicy.toStdString()});
    const CliOptions options = parseCommandLine(replay);
    for (const std::string& policy : {options.run.policy, options.run.comparePolicy})
        if (!policy.empty())
            findPolicy(policy);
    checkOutputs({}, options.outputs, OutputProbe::All);
}

// The provenance's command line: the server as the connection reached it, never a password.
std::string recordCommandLine(const Recording& recording, const RecordArgs& args) {
    std::string line = "lookahead record --conninfo '" +
                       recording.recorded.value(QStringLiteral("connection")).toString().toStdString() +
                       "' --query '" + args.request.query.toStdString() + "'";
    if (args.request.cold)
        line += " --cold";
    for (const QString& setting : args.request.settings)
        line += " --set " + setting.toStdString();
    if (args.request.node)
        line += " --node " + std::to_string(*args.request.node);
    if (args.request.tracer)
        line += *args.request.tracer == TracerKind::Kernel ? " --tracer kernel" : " --tracer strace";
    for (const std::string& option : args.replayOptions)
        line += " " + option;
    return line;
}

// Every line on stderr goes through printableLines(): a server's message (RAISE text) and the names
// of its relations may hold terminal escapes.
void say(const char* prefix, const std::string& text) {
    std::fprintf(stderr, "lookahead: %s%s\n", prefix, printableLines(text).c_str());
}

int cleanUp(const RecordArgs& parsed) {
    QStringList removed;
    try {
        removed = removeRecordingLeftovers(parsed.request.conninfo, parsed.request.password);
    } catch (const RecordError& error) {
        say("record: ", error.what());
        return 1;
    }
    for (const QString& done : removed)
        say("record: ", done.toStdString());
    if (removed.isEmpty())
        say("record: ", "nothing to clean up: no tracefs instance of an ended capture or recording, and no "
                        "pg_buffercache an earlier version's recording created in this database, is left");
    return 0;
}

} // namespace

std::string recordUsageText() {
    return "usage: lookahead record --query SQL [--conninfo CONNINFO] [--cold] [--set NAME=VALUE]\n"
           "                        [--node ID] [--visits-query SQL] [--tracer kernel|strace|auto]\n"
           "                        [--compare-policy P] [--work-dir DIR] [--save FILE.lookahead]\n"
           "                        [--summary-json OUT] [--export-png OUT] [model options]\n"
           "       lookahead record --clean [--conninfo CONNINFO]\n"
           "Records a query on a live PostgreSQL server: its settings, plan and cache state, the query run\n"
           "traced (every read of the backend and its I/O workers) and untraced (PostgreSQL's own figures),\n"
           "then shows the observed run beside the model of the same visits (docs/recording.md).\n"
           "Only a query that reads is run (SELECT, VALUES, TABLE, WITH ... SELECT), in a read-only\n"
           "transaction that is rolled back. Nothing is written to the database: pg_buffercache and\n"
           "pg_visibility are read where they are installed, never installed.\n"
           "  --conninfo CONNINFO   as psql takes it (\"host=/tmp dbname=db\", a URI); PG* variables fill "
           "in\n"
           "  --cold                empty the relation's shared buffers (PostgreSQL 17+, with "
           "pg_buffercache)\n"
           "                        and OS cache first\n"
           "  --set NAME=VALUE      a setting for the query's session (e.g. enable_bitmapscan=off), "
           "repeatable\n"
           "  --node ID             the plan node the model runs, by its node_id (default: of the nodes\n"
           "                        whose visits can be worked out, the one with the most shared reads)\n"
           "  --visits-query SQL    the scan's visits, as ctids or block numbers in visit order\n"
           "  --compare-policy P    the model's policy (default: the server's own, pg19 before 17)\n"
           "  --work-dir DIR        keep the trace, plan, visits and snapshot in DIR (an empty directory\n"
           "                        of yours that nobody else can write)\n"
           "  --tracer T            kernel (tracepoints: read calls and device reads, io_uring's too),\n"
           "                        strace (read calls; stops the server at each), or auto (default:\n"
           "                        kernel where it can run, else strace, saying why)\n"
           "  --clean               remove what a recording killed before it could clean up left behind\n"
           "                        (tracefs instances; pg_buffercache an earlier version created in this\n"
           "                        database), and\n"
           "                        say what; every recording does this first\n"
           "Tracing needs root (the kernel tracer: or CAP_PERFMON with tracefs); strace also works as the\n"
           "server's OS user with kernel.yama.ptrace_scope allowing it.\n";
}

int runRecordCommand(const std::vector<std::string>& args) {
    RecordArgs parsed;
    std::unique_ptr<QTemporaryDir> temporary;
    try {
        parsed = parseArgs(args);
        if (parsed.help) {
            std::fputs(recordUsageText().c_str(), stdout);
            return 0;
        }
        if (parsed.clean)
            return cleanUp(parsed);
        checkReplayOptions(parsed);
        if (parsed.workDirectory.isEmpty()) {
            temporary = std::make_unique<QTemporaryDir>();
            if (!temporary->isValid())
                throw InputError("record: no temporary directory for the work files: " +
                                 temporary->errorString().toStdString());
            parsed.request.workDirectory = temporary->path();
        } else {
            if (!HeldDirectory::open(parsed.workDirectory.toStdString(), "--work-dir").empty())
                throw InputError("record: --work-dir '" + excerpt(parsed.workDirectory.toStdString()) +
                                 "' is not empty: give an empty directory, so that no file of yours is "
                                 "replaced");
            parsed.request.workDirectory = parsed.workDirectory;
        }
    } catch (const InputError& error) {
        say("", error.what());
        return 2;
    }
    RecordCallbacks callbacks;
    callbacks.step = [](const QString& step) { say("record: ", step.toStdString()); };
    callbacks.note = [](const QString& note) { say("note: ", note.toStdString()); };
    callbacks.cancel = &SignalCancel::requested();
    Recording recording;
    try {
        recording = recordQuery(parsed.request, callbacks);
    } catch (const RecordError& error) {
        if (SignalCancel::exitCode() != 0) {
            say("record: ", "cancelled; the server is left as it was");
            return SignalCancel::exitCode();
        }
        say("record: ", error.what());
        return 1;
    }
    std::vector<std::string> replay{"--headless"};
    for (const QString& arg : recording.replayArgs)
        replay.push_back(arg.toStdString());
    replay.insert(replay.end(), parsed.replayOptions.begin(), parsed.replayOptions.end());
    CliOptions options;
    try {
        options = parseCommandLine(replay);
    } catch (const InputError& error) {
        say("record: ", error.what());
        return 2;
    }
    options.recorded = recording.recorded;
    options.commandLine = recordCommandLine(recording, parsed);
    return options.drawsPlots()          ? runHeadlessExport(options)
           : options.importTrace.empty() ? runHeadless(options)
                                         : runImportHeadless(options);
}

} // namespace la

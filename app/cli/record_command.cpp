// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/record_command.h"

#include "cli/cli_options.h"
#include "cli/export_command.h"
#include "cli/import_command.h"
#include "cli/run_command.h"
#include "experiment/signal_cancel.h"
#include "input_error.h"
#include "message_text.h"
#include "record/recorder.h"

#include <QDir>
#include <QTemporaryDir>

#include <cstdio>

namespace la {

namespace {

struct RecordArgs {
    RecordRequest request;
    std::vector<std::string> replayOptions; // the output and model options, for the replay
    QString workDirectory;
    bool help = false;
};

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
        else if (arg == "--conninfo")
            parsed.request.conninfo = value();
        else if (arg == "--query")
            parsed.request.query = value();
        else if (arg == "--cold")
            parsed.request.cold = true;
        else if (arg == "--set")
            parsed.request.settings << value();
        else if (arg == "--visits-query")
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
        } else
            parsed.replayOptions.push_back(arg);
    }
    if (!parsed.help && parsed.request.query.isEmpty())
        throw InputError("record: give --query SQL (the query to record; see lookahead record --help)");
    return parsed;
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
    if (args.request.tracer)
        line += *args.request.tracer == TracerKind::Kernel ? " --tracer kernel" : " --tracer strace";
    for (const std::string& option : args.replayOptions)
        line += " " + option;
    return line;
}

} // namespace

std::string recordUsageText() {
    return "usage: lookahead record --query SQL [--conninfo CONNINFO] [--cold] [--set NAME=VALUE]\n"
           "                        [--visits-query SQL] [--tracer kernel|strace|auto]\n"
           "                        [--compare-policy P] [--work-dir DIR] [--save FILE.lookahead]\n"
           "                        [--summary-json OUT] [--export-png OUT] [model options]\n"
           "Records a query on a live PostgreSQL server: its settings, plan and cache state, the query run\n"
           "traced (every read of the backend and its I/O workers) and untraced (PostgreSQL's own figures),\n"
           "then shows the observed run beside the model of the same visits (docs/recording.md).\n"
           "  --conninfo CONNINFO   as psql takes it (\"host=/tmp dbname=db\", a URI); PG* variables fill "
           "in\n"
           "  --cold                empty the relation's shared buffers (PostgreSQL 17+) and OS cache first\n"
           "  --set NAME=VALUE      a setting for the query's session (e.g. enable_bitmapscan=off), "
           "repeatable\n"
           "  --visits-query SQL    the scan's visits, as ctids or block numbers in visit order\n"
           "  --compare-policy P    the model's policy (default: the server's own, pg19 before 17)\n"
           "  --work-dir DIR        keep the trace, plan, visits and snapshot in DIR (an empty directory)\n"
           "  --tracer T            kernel (tracepoints: read calls and device reads, io_uring's too),\n"
           "                        strace (read calls; stops the server at each), or auto (default:\n"
           "                        kernel where it can run, else strace, saying why)\n"
           "Tracing needs root (the kernel tracer: or CAP_PERFMON with tracefs); strace also works as the\n"
           "server's OS user with kernel.yama.ptrace_scope allowing it.\n";
}

int runRecordCommand(const std::vector<std::string>& args) {
    RecordArgs parsed;
    try {
        parsed = parseArgs(args);
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    if (parsed.help) {
        std::fputs(recordUsageText().c_str(), stdout);
        return 0;
    }
    QTemporaryDir temporary;
    parsed.request.workDirectory = parsed.workDirectory.isEmpty() ? temporary.path() : parsed.workDirectory;
    if (parsed.workDirectory.isEmpty()
            ? !temporary.isValid()
            : !QDir(parsed.workDirectory).exists() || !QDir(parsed.workDirectory).isEmpty()) {
        std::fprintf(stderr, "lookahead: record: --work-dir %s must be an existing, empty directory\n",
                     qPrintable(parsed.workDirectory));
        return 2;
    }
    RecordCallbacks callbacks;
    callbacks.step = [](const QString& step) {
        std::fprintf(stderr, "lookahead: record: %s\n", qPrintable(step));
    };
    callbacks.note = [](const QString& note) {
        std::fprintf(stderr, "lookahead: note: %s\n", qPrintable(note));
    };
    callbacks.cancel = &SignalCancel::requested();
    Recording recording;
    try {
        recording = recordQuery(parsed.request, callbacks);
    } catch (const RecordError& error) {
        if (SignalCancel::exitCode() != 0) {
            std::fprintf(stderr, "lookahead: record: cancelled; the server is left as it was\n");
            return SignalCancel::exitCode();
        }
        std::fprintf(stderr, "lookahead: record: %s\n", error.what());
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
        std::fprintf(stderr, "lookahead: record: %s\n", error.what());
        return 2;
    }
    options.recorded = recording.recorded;
    options.commandLine = recordCommandLine(recording, parsed);
    const bool drawn = options.exportsPlots() || (!options.importTrace.empty() && !options.save.empty());
    return drawn                         ? runHeadlessExport(options)
           : options.importTrace.empty() ? runHeadless(options)
                                         : runImportHeadless(options);
}

} // namespace la

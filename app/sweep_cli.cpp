// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep_cli.h"

#include "input_error.h"
#include "io/output_file.h"
#include "io/output_guard.h"
#include "message_text.h"
#include "signal_cancel.h"
#include "sweep_commands.h"
#include "sweep_maps.h"
#include "sweep_runner.h"
#include "text_parse.h"

#include <QDir>

#include <unistd.h>

#include <cstdio>

namespace la {

namespace {

struct SweepArgs {
    std::string spec;
    std::string out;
    std::string merge;
    int jobs = 0;
    bool force = false;
    bool emitCommands = false;
    std::vector<PlotFormat> formats{PlotFormat::Png, PlotFormat::Svg};
};

std::vector<PlotFormat> parseFormats(const std::string& text) {
    std::vector<PlotFormat> formats;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string name = text.substr(start, comma - start);
        if (name == "png")
            formats.push_back(PlotFormat::Png);
        else if (name == "svg")
            formats.push_back(PlotFormat::Svg);
        else if (name == "pdf")
            formats.push_back(PlotFormat::Pdf);
        else if (name != "none")
            throw InputError(
                joined({"--formats '", excerpt(text), "': expected png, svg, pdf or none, comma-separated"}));
        start = comma + 1;
    }
    return formats;
}

SweepArgs parseArgs(const std::vector<std::string>& args) {
    SweepArgs parsed;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size())
                throw InputError(joined({"sweep: ", arg, " needs a value (see lookahead sweep --help)"}));
            return args[++i];
        };
        if (arg == "--out") {
            parsed.out = value();
        } else if (arg == "--merge") {
            parsed.merge = value();
        } else if (arg == "--jobs") {
            std::uint64_t jobs = 0;
            const std::string& text = value();
            if (!parseUnsigned(text, jobs) || jobs < 1 || jobs > 1024)
                throw InputError(
                    joined({"sweep: --jobs '", excerpt(text), "': expected a whole number 1..1024"}));
            parsed.jobs = int(jobs);
        } else if (arg == "--force") {
            parsed.force = true;
        } else if (arg == "--emit-commands") {
            parsed.emitCommands = true;
        } else if (arg == "--formats") {
            parsed.formats = parseFormats(value());
        } else if (arg.starts_with("--")) {
            throw InputError(
                joined({"sweep: unknown option '", excerpt(arg), "' (see lookahead sweep --help)"}));
        } else if (parsed.spec.empty()) {
            parsed.spec = arg;
        } else {
            throw InputError(
                joined({"sweep: one spec only ('", excerpt(parsed.spec), "' and '", excerpt(arg), "')"}));
        }
    }
    if (parsed.spec.empty())
        throw InputError("sweep: give a spec file or a preset (lookahead sweep collapse-map --out DIR)");
    if (!parsed.merge.empty() && !parsed.out.empty() && parsed.merge != parsed.out)
        throw InputError("sweep: --merge DIR writes its results into DIR; leave out --out");
    if (!parsed.merge.empty())
        parsed.out = parsed.merge;
    if (parsed.out.empty())
        throw InputError("sweep: give --out DIR (where sweep.csv and the maps go)");
    return parsed;
}

void printProgress(const SweepProgress& progress, bool tty) {
    static int lastDecile = -1;
    const int percent = progress.total ? int(progress.done * 100 / progress.total) : 100;
    const double eta = progress.etaSeconds();
    char line[128];
    std::snprintf(line, sizeof line, "sweep: %llu/%llu runs (%d%%), %.0f s, ETA %s",
                  static_cast<unsigned long long>(progress.done),
                  static_cast<unsigned long long>(progress.total), percent, progress.elapsedSeconds,
                  eta < 0 ? "-" : (std::to_string(int(eta + 0.5)) + " s").c_str());
    if (tty) {
        std::fprintf(stderr, "\r%-70s", line);
    } else if (percent / 10 != lastDecile) {
        lastDecile = percent / 10;
        std::fprintf(stderr, "%s\n", line);
    }
}

// Writes the CSV and the maps; the CSV last, so a sweep.csv is only there when all went well.
int writeOutputs(const SweepResults& results, const SweepArgs& args) {
    if (!QDir().mkpath(QString::fromStdString(args.out))) {
        std::fprintf(stderr, "lookahead: sweep: cannot create the output directory %s\n", args.out.c_str());
        return 1;
    }
    QStringList written;
    const QString mapError =
        writeSweepMaps(results, QString::fromStdString(args.out), args.formats, &written);
    if (!mapError.isEmpty()) {
        std::fprintf(stderr, "lookahead: sweep: %s\n", qPrintable(mapError));
        return 1;
    }
    const std::string csvPath =
        QDir(QString::fromStdString(args.out)).filePath(QStringLiteral("sweep.csv")).toStdString();
    const std::string error = writeOutputFile(csvPath, "sweep CSV", sweepCsv(results));
    if (!error.empty()) {
        std::fprintf(stderr, "lookahead: sweep: %s\n", error.c_str());
        return 1;
    }
    std::printf("sweep %s: %llu cells x %zu policies (+ baseline): %s and %lld maps in %s\n",
                results.spec.name.c_str(), static_cast<unsigned long long>(results.spec.cells()),
                results.spec.policies.size(), csvPath.c_str(), static_cast<long long>(written.size()),
                args.out.c_str());
    return 0;
}

} // namespace

std::string sweepUsageText() {
    return "Usage: lookahead sweep SPEC --out DIR [--jobs N] [--force] [--formats png,svg,pdf|none]\n"
           "       lookahead sweep SPEC --emit-commands --out DIR\n"
           "       lookahead sweep SPEC --merge DIR\n"
           "\n"
           "SPEC is a sweep spec (JSON, docs/sweeps.md) or a preset: collapse-map.\n"
           "  --out DIR          write DIR/sweep.csv and the maps DIR/<metric>-<policy>.png/.svg\n"
           "  --jobs N           runs at once (default: one per core); the results do not depend on it\n"
           "  --force            run more than 100,000 cells\n"
           "  --formats LIST     map formats (default png,svg)\n"
           "  --emit-commands    print one headless command per run instead; each writes DIR/cells/*.json\n"
           "  --merge DIR        build DIR/sweep.csv and the maps from those files\n";
}

int runSweepCommand(const std::vector<std::string>& args, const std::string& lookaheadBinary) {
    if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
        std::fputs(sweepUsageText().c_str(), stdout);
        return 0;
    }
    try {
        const SweepArgs parsed = parseArgs(args);
        const SweepSpec spec = loadSweepSpec(parsed.spec, parsed.force);
        const std::string csvPath =
            QDir(QString::fromStdString(parsed.out)).filePath(QStringLiteral("sweep.csv")).toStdString();
        checkOutputsApart({{"sweep spec", parsed.spec}}, {{"sweep CSV", csvPath}});
        if (parsed.emitCommands) {
            SweepResults results;
            results.spec = spec;
            prepareResults(results);
            if (!QDir().mkpath(QString::fromStdString(parsed.out + "/cells")))
                throw InputError(
                    joined({"sweep: cannot create ", parsed.out, "/cells for the runs' JSON files"}));
            for (const std::string& command : sweepCommands(results, lookaheadBinary, parsed.out))
                std::printf("%s\n", command.c_str());
            return 0;
        }
        if (!parsed.merge.empty())
            return writeOutputs(mergeSweep(spec, parsed.merge), parsed);
        const bool tty = isatty(STDERR_FILENO) != 0;
        const SweepResults results = runSweep(spec, parsed.jobs, &SignalCancel::requested(),
                                              [tty](const SweepProgress& p) { printProgress(p, tty); });
        if (tty)
            std::fputc('\n', stderr);
        if (results.cancelled) {
            std::fprintf(stderr, "lookahead: sweep cancelled; nothing was written to %s\n",
                         parsed.out.c_str());
            return SignalCancel::exitCode() ? SignalCancel::exitCode() : 130;
        }
        return writeOutputs(results, parsed);
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
}

} // namespace la

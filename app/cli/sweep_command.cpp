// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/sweep_command.h"

#include "cli/argument_list.h"
#include "experiment/command_outputs.h"

#include "experiment/signal_cancel.h"
#include "files/output_file.h"
#include "files/output_guard.h"
#include "input_error.h"
#include "message_text.h"
#include "render/sweep_maps.h"
#include "run_inputs.h"
#include "sweep/sweep_commands.h"
#include "sweep/sweep_runner.h"
#include "text_parse.h"

#include <QDir>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

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
    ArgumentList list("sweep", args);
    while (const std::string* next = list.next()) {
        const std::string& arg = *next;
        if (arg == "--out") {
            parsed.out = list.value();
        } else if (arg == "--merge") {
            parsed.merge = list.value();
        } else if (arg == "--jobs") {
            std::uint64_t jobs = 0;
            const std::string& text = list.value();
            if (!parseUnsigned(text, jobs) || jobs < 1 || jobs > 1024)
                throw InputError(
                    joined({"sweep: --jobs '", excerpt(text), "': expected a whole number 1..1024"}));
            parsed.jobs = int(jobs);
        } else if (arg == "--force") {
            parsed.force = true;
        } else if (arg == "--emit-commands") {
            parsed.emitCommands = true;
        } else if (arg == "--formats") {
            parsed.formats = parseFormats(list.value());
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
    static bool lastSettingUp = false;
    if (progress.settingUp != lastSettingUp) {
        lastSettingUp = progress.settingUp;
        lastDecile = -1;
        if (tty)
            std::fputc('\n', stderr);
    }
    const int percent = progress.total ? int(progress.done * 100 / progress.total) : 100;
    const double eta = progress.etaSeconds();
    char line[160];
    if (progress.settingUp)
        std::snprintf(line, sizeof line, "sweep: setting up, %llu/%llu cells checked (%d%%), %.0f s",
                      static_cast<unsigned long long>(progress.done),
                      static_cast<unsigned long long>(progress.total), percent, progress.elapsedSeconds);
    else
        std::snprintf(line, sizeof line, "sweep: %llu/%llu runs (%d%%), %.0f s, ETA %s",
                      static_cast<unsigned long long>(progress.done),
                      static_cast<unsigned long long>(progress.total), percent, progress.elapsedSeconds,
                      eta < 0 ? "-" : (std::to_string(int(eta + 0.5)) + " s").c_str());
    if (tty) {
        std::fprintf(stderr, "\r%-78s", line);
    } else if (percent / 10 != lastDecile) {
        lastDecile = percent / 10;
        std::fprintf(stderr, "%s\n", line);
    }
}

// More maps than anyone can look at, and more files than a check of each against every input can
// afford: the maps are of the first two axes, one set per combination of the others.
constexpr std::uint64_t kSweepSliceLimit = 1000;

std::string csvPathIn(const std::string& out) {
    return QDir(QString::fromStdString(out)).filePath(QStringLiteral("sweep.csv")).toStdString();
}

// The output directory, made and checked before the first run: a sweep that cannot write its
// results must say so at once, not after hours of runs.
void prepareOutDir(const std::string& out) {
    const auto refuse = [&out](const std::string& why) {
        return InputError(
            joined({"sweep: --out '", excerpt(out, 200), "' ", why,
                    "; give a directory you can write (it is made if missing) for sweep.csv and the maps"}));
    };
    std::error_code error;
    std::filesystem::create_directories(out, error);
    struct stat st {};
    if (::stat(out.c_str(), &st) != 0)
        throw refuse(joined({"cannot be made (", error ? error.message() : std::strerror(errno), ")"}));
    if (!S_ISDIR(st.st_mode))
        throw refuse("is not a directory");
    if (::access(out.c_str(), W_OK | X_OK) != 0)
        throw refuse(joined({"is not writable (", std::strerror(errno), ")"}));
}

// What a sweep reads: its spec, and every file a cell's options name (--file, --blocks, ...). Each
// value of each axis is taken once, in the first cell that has it, as loadSweepSpec() checks them.
std::vector<NamedPath> sweepInputs(const SweepSpec& spec, const std::string& specArg, bool preset) {
    std::vector<NamedPath> inputs;
    if (!preset)
        inputs.push_back({"the sweep spec", specArg});
    const auto add = [&inputs](const RunConfig& config) {
        for (NamedPath& input : runInputs(config)) {
            bool known = false;
            for (const NamedPath& other : inputs)
                known = known || other.path == input.path;
            if (!known)
                inputs.push_back(std::move(input));
        }
    };
    add(spec.cellConfig(0));
    std::uint64_t stride = spec.cells();
    for (const SweepAxis& axis : spec.axes) {
        stride /= axis.values.size();
        for (std::uint64_t value = 1; value < axis.values.size(); ++value)
            add(spec.cellConfig(value * stride));
    }
    return inputs;
}

// The emitted commands write DIR/cells/*.json: no input may lie there, where a command would
// replace it (the files themselves are too many to list for a large grid).
void checkNothingReadInCells(const std::vector<NamedPath>& inputs, const std::string& out) {
    std::error_code error;
    const std::string cells =
        std::filesystem::weakly_canonical(std::filesystem::absolute(out, error) / "cells", error).string();
    for (const NamedPath& input : inputs) {
        const std::string path =
            std::filesystem::weakly_canonical(std::filesystem::absolute(input.path, error), error).string();
        if (path.starts_with(cells + "/"))
            throw InputError(
                joined({input.role, " '", excerpt(input.path, 200), "' lies in ", excerpt(cells, 200),
                        ", where the emitted commands write their results: Lookahead never "
                        "overwrites what it reads; move it elsewhere"}));
    }
}

// Standard output for the emitted commands, written with write(2) rather than stdio: a SIGINT while
// a full pipe blocks the write must end the run (stdio would keep the unwritten commands and block
// again at exit), and a closed pipe must not pass for success.
class CommandOutput {
public:
    bool add(const std::string& line) {
        m_buffer += line;
        m_buffer += '\n';
        return m_buffer.size() < kFlushBytes || flush();
    }
    bool flush() {
        std::string_view rest = m_buffer;
        while (!rest.empty()) {
            // A signal during a blocked write ends it early: with EINTR, or with what it wrote so far.
            if (SignalCancel::requested().load()) {
                m_error = EINTR;
                return false;
            }
            const ssize_t n = ::write(STDOUT_FILENO, rest.data(), rest.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                m_error = errno;
                return false;
            }
            rest.remove_prefix(std::size_t(n));
        }
        m_buffer.clear();
        return true;
    }
    int error() const { return m_error; }

private:
    static constexpr std::size_t kFlushBytes = 64 * 1024;
    std::string m_buffer;
    int m_error = 0;
};

// `what` follows "sweep cancelled": when, and what it left.
int cancelled(const std::string& what) {
    std::fprintf(stderr, "lookahead: sweep cancelled%s\n", what.c_str());
    return SignalCancel::exitCode() ? SignalCancel::exitCode() : 130;
}

int emitCommands(const SweepSpec& spec, const SweepArgs& args, const std::string& lookaheadBinary) {
    if (!QDir().mkpath(QString::fromStdString(args.out + "/cells")))
        throw InputError(
            joined({"sweep: cannot create ", excerpt(args.out, 200), "/cells for the runs' JSON files"}));
    CommandOutput output;
    const bool whole =
        emitSweepCommands(spec, lookaheadBinary, args.out, &SignalCancel::requested(),
                          [&output](const std::string& command) { return output.add(command); }) &&
        output.flush();
    if (SignalCancel::requested().load())
        return cancelled(" while printing the commands; the list is incomplete");
    if (!whole) {
        std::fprintf(stderr, "lookahead: sweep: cannot write standard output: %s\n",
                     std::strerror(output.error()));
        return 1;
    }
    return 0;
}

// Writes the CSV and the maps; the CSV last, so a sweep.csv is only there when all went well.
int writeOutputs(const SweepResults& results, const SweepArgs& args) {
    QStringList written;
    const QString mapError =
        writeSweepMaps(results, QString::fromStdString(args.out), args.formats, &written);
    if (!mapError.isEmpty()) {
        std::fprintf(stderr, "lookahead: sweep: %s\n", qPrintable(mapError));
        return 1;
    }
    const std::string csvPath = csvPathIn(args.out);
    const std::string error = writeOutputFile(csvPath, "sweep CSV", sweepCsv(results));
    if (!error.empty()) {
        std::fprintf(stderr, "lookahead: sweep: %s\n", error.c_str());
        return 1;
    }
    std::printf("sweep %s: %llu cells x %zu policies (+ baseline): %s and %lld maps in %s\n",
                excerpt(results.spec.name).c_str(), static_cast<unsigned long long>(results.spec.cells()),
                results.spec.policies.size(), printable(csvPath).c_str(),
                static_cast<long long>(written.size()), printable(args.out).c_str());
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
        const bool preset = spec.source != parsed.spec;
        prepareOutDir(parsed.out);
        // Every output against every input before anything runs (docs/sweeps.md "Outputs").
        std::vector<NamedPath> inputs = sweepInputs(spec, parsed.spec, preset);
        if (parsed.emitCommands) {
            checkNothingReadInCells(inputs, parsed.out);
            return emitCommands(spec, parsed, lookaheadBinary);
        }
        // What keeps the results, and the number of maps, are known now: refused before any work.
        requireSweepMemory(spec, parsed.merge.empty() ? 0 : sizeof(NamedPath) + 64);
        if (!parsed.formats.empty() && sweepSlices(spec) > kSweepSliceLimit)
            throw InputError(
                joined({"sweep spec ", excerpt(spec.source, 200), ": its axes after the first two make ",
                        std::to_string(sweepSlices(spec)), " maps of each metric and policy, more than ",
                        std::to_string(kSweepSliceLimit),
                        "; put the axes with the most values first, or give --formats none"}));
        std::vector<NamedPath> outputs;
        for (const QString& map : sweepMapFiles(spec, QString::fromStdString(parsed.out), parsed.formats))
            outputs.push_back({"the sweep map", map.toStdString()});
        outputs.push_back({"the sweep CSV", csvPathIn(parsed.out)});
        const bool tty = isatty(STDERR_FILENO) != 0;
        const auto progress = [tty](const SweepProgress& p) { printProgress(p, tty); };
        if (!parsed.merge.empty()) {
            // The runs' files are inputs too (their list's memory was counted above).
            for (std::uint64_t cell = 0; cell < spec.cells(); ++cell)
                for (std::size_t policy = 0; policy <= spec.policies.size(); ++policy)
                    inputs.push_back({"the run file", parsed.out + "/" + sweepCellFile(spec, cell, policy)});
            checkOutputsApart(inputs, outputs);
            const SweepResults results = mergeSweep(spec, parsed.merge, &SignalCancel::requested(),
                                                    [&progress](std::uint64_t checked, std::uint64_t cells) {
                                                        progress({checked, cells, 0.0, true});
                                                    });
            if (results.cancelled)
                return cancelled(" while merging; nothing was written to " + parsed.out);
            return writeOutputs(results, parsed);
        }
        checkOutputsApart(inputs, outputs);
        const SweepResults results = runSweep(spec, parsed.jobs, &SignalCancel::requested(), progress);
        if (tty)
            std::fputc('\n', stderr);
        if (results.cancelled)
            return cancelled("; nothing was written to " + parsed.out);
        return writeOutputs(results, parsed);
    } catch (const InputError& error) {
        return reportBadInput(error);
    }
}

} // namespace la

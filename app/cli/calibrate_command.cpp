// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/calibrate_command.h"

#include "cli/argument_list.h"

#include "experiment/device_profile_json.h"
#include "experiment/signal_cancel.h"
#include "files/output_file.h"
#include "files/output_guard.h"
#include "input_error.h"
#include "io/device_calibration.h"
#include "io_backend.h"
#include "message_text.h"
#include "scan_target.h"
#include "text_parse.h"

#include <unistd.h>

#include <cstdio>

namespace la {

namespace {

struct CalibrateArgs {
    CalibrationSettings settings;
    std::string out;
    std::string cacheDir;
    bool help = false;
};

CalibrateArgs parseArgs(const std::vector<std::string>& args) {
    CalibrateArgs parsed;
    ArgumentList list("calibrate", args);
    while (const std::string* next = list.next()) {
        const std::string& arg = *next;
        if (arg == "--help" || arg == "-h") {
            parsed.help = true;
        } else if (arg == "--out") {
            parsed.out = list.value();
        } else if (arg == "--file") {
            parsed.settings.file = list.value();
        } else if (arg == "--cache-dir") {
            parsed.cacheDir = list.value();
        } else if (arg == "--seconds") {
            const std::string& text = list.value();
            if (!parseDouble(text, parsed.settings.seconds) || !(parsed.settings.seconds > 0.0) ||
                parsed.settings.seconds > 3600.0)
                throw InputError(joined(
                    {"calibrate: --seconds '", excerpt(text), "': expected a number above 0, at most 3600"}));
        } else if (arg == "--scratch-mib") {
            const std::string& text = list.value();
            std::uint64_t mib = 0;
            if (!parseUnsigned(text, mib) || mib < (kMinCalibrationFileBytes >> 20) || mib > (1u << 20))
                throw InputError(
                    joined({"calibrate: --scratch-mib '", excerpt(text), "': expected a whole number ",
                            std::to_string(kMinCalibrationFileBytes >> 20), "..1048576"}));
            parsed.settings.scratchBytes = mib << 20;
        } else {
            throw InputError(joined(
                {"calibrate: unknown argument '", excerpt(arg), "' (see lookahead calibrate --help)"}));
        }
    }
    if (!parsed.help && parsed.out.empty())
        throw InputError("calibrate: give --out PROFILE.json (where the device profile goes)");
    return parsed;
}

// One line per stage, and on a terminal the percentage in place.
class ProgressPrinter {
public:
    ProgressPrinter() : m_tty(::isatty(STDERR_FILENO) == 1) {}
    ~ProgressPrinter() {
        if (m_tty && !m_stage.empty())
            std::fputc('\n', stderr);
    }
    ProgressPrinter(const ProgressPrinter&) = delete;
    ProgressPrinter& operator=(const ProgressPrinter&) = delete;

    void show(const std::string& stage, double fraction) {
        const int percent = int(fraction * 100.0);
        if (stage == m_stage && !m_tty)
            return;
        if (m_tty)
            std::fprintf(stderr, "\rcalibrate: %-44s %3d %%", stage.c_str(), percent);
        else
            std::fprintf(stderr, "calibrate: %s (%d %%)\n", stage.c_str(), percent);
        m_stage = stage;
    }
    void notice(const std::string& text) {
        std::fprintf(stderr, "%scalibrate: %s\n", m_tty && !m_stage.empty() ? "\n" : "", text.c_str());
    }

private:
    bool m_tty;
    std::string m_stage;
};

void printFigures(const DeviceCalibration& calibration) {
    const DeviceProfile& profile = calibration.profile;
    std::printf("%-18s %6s %10s %10s %10s %10s %10s\n", "reads", "depth", "IOPS", "MB/s", "mean us", "p50 us",
                "p99 us");
    const auto row = [](const char* what, const LatencyFigures& f, std::uint32_t bytes) {
        std::printf("%-18s %6d %10.0f %10.1f %10.1f %10.1f %10.1f\n", what, f.depth, f.iops,
                    f.iops * bytes / 1e6, f.meanNs / 1000.0, f.latencyAt(0.5) / 1000.0,
                    f.latencyAt(0.99) / 1000.0);
    };
    for (const LatencyFigures& f : profile.random)
        row("8 kB random", f, DeviceProfile::kRandomReadBytes);
    const std::string sequential = std::to_string(profile.sequentialBytes / 1024) + " kB sequential";
    for (const LatencyFigures& f : profile.sequential)
        row(sequential.c_str(), f, profile.sequentialBytes);
    std::printf("effective parallelism %d (%s, %s, %.1f s)\n", profile.parallelism,
                calibration.engine.c_str(), calibration.direct ? "O_DIRECT" : "page cache",
                calibration.seconds);
}

} // namespace

std::string calibrateUsageText() {
    return "Usage: lookahead calibrate [--file PATH] --out PROFILE.json [--seconds S]\n"
           "\n"
           "Measures the disk and writes a device profile for --device-profile: 8 kB random reads\n"
           "(O_DIRECT) kept 1, 2, 4, 8, 16, 32 and 64 deep, then 128 kB sequential reads 1 and 16 deep;\n"
           "for each, the reads per second and the latency distribution.\n"
           "\n"
           "  --out FILE        the profile (JSON) to write; written whole or not at all\n"
           "  --file PATH       measure the disk PATH lies on by reading PATH (read only, never written;\n"
           "                    at least 8 MiB). Default: a scratch file written in the dataset cache\n"
           "                    directory and gone when the measurement ends\n"
           "  --seconds S       how long the whole measurement takes (default 12)\n"
           "  --cache-dir DIR   where the scratch file goes (default $XDG_CACHE_HOME/lookahead/datasets)\n"
           "  --scratch-mib N   the scratch file's size (default 256)\n"
           "\n"
           "Ctrl+C stops the measurement; nothing is written then.\n";
}

int runCalibrateCommand(const std::vector<std::string>& args, const std::string& commandLine) {
    ProgressPrinter printer;
    try {
        CalibrateArgs parsed = parseArgs(args);
        if (parsed.help) {
            std::fputs(calibrateUsageText().c_str(), stdout);
            return 0;
        }
        RunConfig where;
        where.cacheDir = parsed.cacheDir;
        if (parsed.settings.file.empty())
            parsed.settings.scratchDir = datasetCacheDir(where);
        else
            checkOutputsApart({{"--file", parsed.settings.file}}, {{"--out", parsed.out}});
        // Opened first: an output that cannot be written is known before the measurement, not after.
        OutputFile output(parsed.out, "device profile");
        CalibrationCallbacks callbacks;
        callbacks.progress = [&printer](const std::string& stage, double fraction) {
            printer.show(stage, fraction);
        };
        callbacks.notice = [&printer](const std::string& text) { printer.notice(text); };
        callbacks.cancel = &SignalCancel::requested();
        const DeviceCalibration calibration = calibrateDevice(parsed.settings, callbacks);
        if (calibration.cancelled) {
            printer.notice("cancelled; no profile written");
            return SignalCancel::exitCodeOr(130);
        }
        commitDeviceProfile(output, calibration, commandLine);
        printer.notice("profile written to " + printable(parsed.out));
        printFigures(calibration);
        return 0;
    } catch (const InputError& error) {
        printer.notice(error.what());
        return 2;
    } catch (const IoError& error) {
        printer.notice(error.what());
        return 1;
    }
}

} // namespace la

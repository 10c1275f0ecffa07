// SPDX-License-Identifier: GPL-3.0-or-later
// The calibration table (docs/simulated-device.md, "Calibrated profiles"): real PostgreSQL 19 seq
// scans against the simulated pg19 runs of the same cache states on a calibrated device profile.
// For each case K1..K6 of the pg19-calibration fixture and each io_method, it prints PostgreSQL's
// median Prefetch avg / max and I/O waits beside the simulated ones (the median over --repeats
// seeds), and whether each lies within 10 %.
//
//   lookahead-calibration-table FIXTURE_DIR PROFILE.json [--consumer-ns N] [--repeats N] [--markdown]
//
// The simulated run is the command line's
//   lookahead --headless --dataset seq --pattern-blocks 16384 --prewarm list:FIXTURE/K1/sync/r1/cached.txt
//     --sim-io-method worker --shared-buffers 131072 --direct --policy pg19 --stream-flags sequential
//     --device-profile PROFILE.json
#include "experiment/device_profile_json.h"
#include "input_error.h"
#include "run.h"
#include "run_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Figures {
    double avg = 0.0;
    double max = 0.0;
    double waits = 0.0;
};

// summary-median.csv: (case, method) -> PostgreSQL's medians.
std::map<std::pair<std::string, std::string>, Figures> readMedians(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw la::InputError("cannot read " + path + " (give the pg19-calibration fixture directory)");
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    std::stringstream names(line);
    for (std::string name; std::getline(names, name, ',');)
        header.push_back(name);
    const auto column = [&header, &path](const char* name) {
        const auto at = std::find(header.begin(), header.end(), name);
        if (at == header.end())
            throw la::InputError(path + " has no column " + name);
        return std::size_t(at - header.begin());
    };
    const std::size_t kase = column("case"), method = column("method"), avg = column("prefetch_avg"),
                      max = column("prefetch_max"), waits = column("io_waits");
    std::map<std::pair<std::string, std::string>, Figures> medians;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream row(line);
        for (std::string cell; std::getline(row, cell, ',');)
            cells.push_back(cell);
        if (cells.size() != header.size())
            continue;
        medians[{cells[kase], cells[method]}] = {std::atof(cells[avg].c_str()), std::atof(cells[max].c_str()),
                                                 std::atof(cells[waits].c_str())};
    }
    return medians;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

Figures simulate(const std::string& cached, const std::string& method, const std::string& profilePath,
                 std::int64_t consumerNs, std::int64_t submitNs, int repeats) {
    la::RunConfig config = la::defaultRunConfig();
    const auto set = [&config](const char* name, const std::string& value) {
        la::setRunOption(config, *la::findRunOption(name), value);
    };
    set("dataset", "seq");
    set("pattern-blocks", "16384");
    set("prewarm", "list:" + cached);
    set("sim-io-method", method);
    set("shared-buffers", "131072");
    set("direct", "true");
    set("policy", "pg19");
    set("stream-flags", "sequential");
    config.consumerNs = consumerNs;
    if (!profilePath.empty()) {
        set("device-profile", profilePath);
        la::useDeviceProfile(config.device, la::loadDeviceProfile(profilePath));
    }
    config.device.submitNs = submitNs;
    std::vector<double> avg, max, waits;
    for (int seed = 1; seed <= repeats; ++seed) {
        config.device.seed = std::uint64_t(seed);
        const la::RunSummary summary = la::runScan(config, config.policy, {});
        avg.push_back(summary.explainIo.prefetchAvg());
        max.push_back(summary.explainIo.distanceMax);
        waits.push_back(double(summary.explainIo.waitCount));
    }
    return {median(avg), median(max), median(waits)};
}

bool within(double simulated, double real) {
    return std::abs(simulated - real) <= 0.1 * real;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: %s FIXTURE_DIR PROFILE.json|default [--consumer-ns N] [--submit-ns METHOD=N]... "
                     "[--repeats N] [--markdown]\n",
                     argv[0]);
        return 2;
    }
    const std::string fixture = argv[1];
    const std::string profile = std::string(argv[2]) == "default" ? std::string() : argv[2];
    std::int64_t consumerNs = 3000;
    std::map<std::string, std::int64_t> submitNs;
    int repeats = 5;
    bool markdown = false;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--consumer-ns" && i + 1 < argc) {
            consumerNs = std::atoll(argv[++i]);
        } else if (arg == "--submit-ns" && i + 1 < argc) {
            // The backend's cost to start one read differs by io_method (docs/simulated-device.md).
            const std::string value = argv[++i];
            const std::size_t equals = value.find('=');
            if (equals != std::string::npos)
                submitNs[value.substr(0, equals)] = std::atoll(value.c_str() + equals + 1);
        } else if (arg == "--repeats" && i + 1 < argc)
            repeats = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--markdown")
            markdown = true;
    }
    try {
        const auto medians = readMedians(fixture + "/summary-median.csv");
        const char* const cases[] = {"K1", "K2", "K3", "K4", "K5", "K6"};
        const char* const methods[] = {"worker", "io_uring", "sync"};
        if (markdown) {
            std::printf(
                "| case | io_method | avg PG | avg sim | | max PG | max sim | | waits PG | waits sim | |\n");
            std::printf("|---|---|---:|---:|---|---:|---:|---|---:|---:|---|\n");
        } else {
            std::printf("%-4s %-9s %8s %8s %3s %6s %6s %3s %7s %7s %3s\n", "case", "method", "avg PG",
                        "avg sim", "", "max PG", "sim", "", "waitsPG", "sim", "");
        }
        int within10[3] = {0, 0, 0};
        int rows = 0;
        for (const char* kase : cases)
            for (const char* method : methods) {
                const auto found = medians.find({kase, method});
                if (found == medians.end())
                    continue;
                const Figures& real = found->second;
                const auto submit = submitNs.find(method);
                const Figures sim = simulate(fixture + "/" + kase + "/sync/r1/cached.txt", method, profile,
                                             consumerNs, submit == submitNs.end() ? 0 : submit->second,
                                             std::string(method) == "sync" ? 1 : repeats);
                const bool ok[3] = {within(sim.avg, real.avg), within(sim.max, real.max),
                                    within(sim.waits, real.waits)};
                for (int k = 0; k < 3; ++k)
                    within10[k] += ok[k];
                ++rows;
                const char* yes = markdown ? "✓" : "ok";
                const char* no = markdown ? "✗" : "--";
                std::printf(markdown
                                ? "| %s | %s | %.2f | %.2f | %s | %.0f | %.0f | %s | %.0f | %.0f | %s |\n"
                                : "%-4s %-9s %8.2f %8.2f %3s %6.0f %6.0f %3s %7.0f %7.0f %3s\n",
                            kase, method, real.avg, sim.avg, ok[0] ? yes : no, real.max, sim.max,
                            ok[1] ? yes : no, real.waits, sim.waits, ok[2] ? yes : no);
            }
        std::printf(
            "%swithin 10 %%: avg %d/%d, max %d/%d, waits %d/%d (consumer %lld ns/block, %s, median of %d "
            "seeds)\n",
            markdown ? "\n" : "", within10[0], rows, within10[1], rows, within10[2], rows,
            static_cast<long long>(consumerNs), profile.empty() ? "default device" : profile.c_str(),
            repeats);
    } catch (const la::InputError& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 2;
    }
    return 0;
}

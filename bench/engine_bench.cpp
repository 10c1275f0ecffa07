// SPDX-License-Identifier: GPL-3.0-or-later
// Engine throughput on the simulated device with tracing on: blocks per second for seq, random and
// alternating scans, events per block, and peak memory. A benchmark, not a test: it prints figures.
#include "run.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// Counts events the way a live view would receive them, without keeping them.
class CountingSink final : public la::EventSink {
public:
    void onEvents(std::span<const la::Event> batch) override {
        events += batch.size();
        for (const la::Event& e : batch)
            checksum += e.block;
    }
    std::uint64_t events = 0;
    std::uint64_t checksum = 0;
};

long peakRssKb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace

int main(int argc, char** argv) {
    // Usage: lookahead-bench [BLOCKS [DATASET [POLICY]]]: one dataset or policy alone, for a profiler
    const std::uint64_t blocks = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000ULL;
    std::printf("engine throughput, simulated device, tracing on, %llu blocks per run\n",
                static_cast<unsigned long long>(blocks));
    std::printf("%-12s %-8s %12s %10s %12s %14s\n", "dataset", "policy", "blocks/s", "events/blk",
                "run s (wall)", "peak RSS MB");
    const std::string only = argc > 2 ? argv[2] : "";
    const std::string onlyPolicy = argc > 3 ? argv[3] : "";
    for (const char* dataset : {"seq", "random", "alternating"}) {
        if (!only.empty() && only != dataset)
            continue;
        for (const char* policy : {"pg18", "adaptive"}) {
            if (!onlyPolicy.empty() && onlyPolicy != policy)
                continue;
            la::RunConfig config;
            config.dataset.name = dataset;
            config.dataset.blocks = blocks;
            CountingSink sink;
            la::RunCallbacks callbacks;
            callbacks.sinks.push_back(&sink);
            const auto start = std::chrono::steady_clock::now();
            const la::RunSummary summary = la::runScan(config, policy, callbacks);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::printf("%-12s %-8s %12.0f %10.2f %12.3f %14.1f\n", dataset, policy,
                        static_cast<double>(summary.blocks) / seconds,
                        static_cast<double>(sink.events) / static_cast<double>(summary.blocks), seconds,
                        static_cast<double>(peakRssKb()) / 1024.0);
        }
    }
    std::printf("event size: %zu bytes\n", sizeof(la::Event));
    return 0;
}
